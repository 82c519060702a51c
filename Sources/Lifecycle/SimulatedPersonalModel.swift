import PipelineKit

/// Stands in for training in the device simulation, which asks whether the `ml-retrain` chain runs,
/// not what it learns: a retrain "succeeds" at once and there is never an insight to send. Everything
/// around it — the handlers, their successors, conditions, leases and the run history — is the
/// pipeline's real code.
struct SimulatedPersonalModel: PersonalModelService {
    func retrain(user: UserID) async throws(PipelineError) -> RetrainOutcome {
        RetrainOutcome(promoted: false, reason: "simulated retrain (the device simulation trains no model)")
    }

    func insight(user: UserID) async throws(PipelineError) -> String? {
        nil
    }
}
