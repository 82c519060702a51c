import Foundation
import PipelineKit
import Scheduling

/// Stands in for training in the device simulation, which asks whether the `ml-retrain` chain runs,
/// not what it learns: a retrain takes `duration` of virtual time and trains nothing, and there is
/// never an insight to send. Everything around it — the handlers, their successors, budgets and
/// expiry, conditions, leases and the run history — is the pipeline's real code.
struct SimulatedPersonalModel: PersonalModelService {
    /// Virtual time a retrain takes.
    let duration: TimeInterval
    /// The clock the work waits on: the simulation moves it.
    let timer: ManualExpiryTimer
    /// Told when a retrain starts working and until when.
    let started: @Sendable (_ until: Date) -> Void

    func retrain(user: UserID) async throws(PipelineError) -> RetrainOutcome {
        if duration > 0 {
            let start = timer.clock.now
            started(start.addingTimeInterval(duration))
            do {
                try await timer.wait(duration, from: start)
            } catch {
                throw .cancelled
            }
        }
        return RetrainOutcome(promoted: false, reason: "simulated retrain (the device simulation trains no model)")
    }

    func insight(user: UserID) async throws(PipelineError) -> String? {
        nil
    }
}
