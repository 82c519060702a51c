import Foundation
import Learning
import PipelineKit
import Scheduling
import TestSupport
import Testing

/// The README's library example against a temporary database (the launch with fixed device
/// conditions, so the test does not depend on the host's power supply): documentation
/// that does not compile or does not do what it says is a bug.
@Suite("The README's library example")
struct ReadmeExampleTests {
    @Test("runs as written and does what its comments say", arguments: TestBackend.all)
    func example(backend: TestBackend) async throws {
        let database = TestDatabase(backend, now: Date(iso: "2026-03-02T12:00:00Z"))
        // --- README (the path is the test's) ---
        let pipeline = try await Pipeline.open(path: database.path, clock: database.clock)
        let alice = UserID("alice")!
        try await pipeline.ingest(.user(UserUpdate(id: alice, timeZone: TimeZone.iana("Europe/Berlin"))))

        var entry = UserEntry(user: alice, day: Day("2026-03-01")!)
        entry.symptomSeverity = .set(4)
        entry.notes = .set("slept badly")
        try await pipeline.ingest(.entry(entry))
        try await pipeline.ingest(
            .health(HealthMetrics(user: alice, day: Day("2026-03-01")!, hrv: 48.2, stepCount: 8042)))

        let (today, log) = try await pipeline.today(for: alice)
        let settings = try await pipeline.settings(for: alice)  // notifications on unless turned off

        let models = PersonalModels(pipeline: pipeline)
        let outcome = try await models.retrain(user: alice)  // outcome.reason: what serves and why
        let tomorrow = try await models.forecast(user: alice, for: today.adding(days: 1))

        var options = LaunchOptions()
        options.conditions = FixedConditions(isOnExternalPower: true)
        let report = try await pipeline.launch(options)
        // --- end of README ---
        #expect(today == Day("2026-03-02"))
        #expect(log == nil)
        #expect(settings.engagementNotifications)
        // One user with one day: too few to pool a population and nothing to score, so their own past serves —
        // smoothing of the one severity logged — and with no error seen yet, the interval is the whole scale.
        #expect(outcome.reason.contains("no scored day") && outcome.reason.contains("smoothing"))
        #expect(tomorrow.source == .combined && tomorrow.severity == 4 && tomorrow.interval == 0...10)
        #expect(!report.runs.isEmpty)
        let stored = try #require(try await pipeline.dailyLog(user: alice, day: Day("2026-03-01")!))
        #expect(stored.symptomSeverity == 4 && stored.notes == "slept badly")
        #expect(stored.hrv == Sourced(48.2, .health))
    }
}
