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
    let model = FakeModelService()

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
