import Domain
import Foundation
import PipelineKit
import Scheduling
import Storage
import TestSupport

/// A pipeline on a fresh database with a manual clock, expiry timer and conditions, and a personal
/// model written for the tests: launches run exactly as cron's would, at instants the test picks.
final class LaunchHarness: Sendable {
    let database: TestDatabase
    let pipeline: Pipeline
    let timer: ManualExpiryTimer
    let conditions = ManualConditions()
    let model = TestPersonalModel()

    /// A harness on a fresh database of `backend`: every launch test body runs on each backend.
    init(_ backend: TestBackend, now: Date = Date(iso: "2026-03-15T12:00:00Z")) async throws {
        database = TestDatabase(backend, now: now)
        pipeline = try await database.open()
        timer = ManualExpiryTimer(clock: database.clock)
    }

    var clock: ManualClock { database.clock }

    func options(_ change: (inout LaunchOptions) -> Void = { _ in }) -> LaunchOptions {
        var options = LaunchOptions()
        options.jobs = 1
        options.conditions = conditions
        options.timer = timer
        options.personalModel = model
        change(&options)
        return options
    }

    @discardableResult
    func launch(_ change: (inout LaunchOptions) -> Void = { _ in }) async throws -> LaunchReport {
        try await pipeline.launch(options(change))
    }

    func addUser(_ id: String, timeZone: String = "UTC", settings: [SettingKey: SettingValue?] = [:]) async throws {
        try await pipeline.ingest([
            .user(UserUpdate(id: .literal(id), timeZone: TimeZone.iana(timeZone))),
            .settings(SettingsUpdate(user: .literal(id), changes: settings)),
        ])
    }

    func history(_ task: TaskIdentifier? = nil, user: String? = nil) async throws -> [TaskRun] {
        try await pipeline.taskHistory(user: user.map(UserID.literal), task: task)
    }
}

/// A personal model that counts its calls and always has an answer.
final class TestPersonalModel: PersonalModelService {
    private let calls = Locked<(retrains: [UserID], insights: [UserID])>(([], []))
    let insightText = Locked<String?>("On days after you slept longer, your symptoms were milder.")

    /// Set to make every retrain fail with it.
    let failure = Locked<PipelineError?>(nil)

    func retrain(user: UserID) async throws(PipelineError) -> RetrainOutcome {
        calls.withLock { $0.retrains.append(user) }
        if let failure = failure.withLock({ $0 }) { throw failure }
        return RetrainOutcome(
            promoted: true, reason: "promoted: beats persistence and the population model on the hold-out")
    }

    func insight(user: UserID) async throws(PipelineError) -> String? {
        calls.withLock { $0.insights.append(user) }
        return insightText.withLock { $0 }
    }

    var retrains: [UserID] { calls.withLock { $0.retrains } }
    var insights: [UserID] { calls.withLock { $0.insights } }
}
