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
        // --- README (the path and clock are the test's; scripts/library-example.sh runs it as written) ---
        let pipeline = try await Pipeline.open(path: database.path, clock: database.clock)
        let alice = UserID("alice")!
        try await pipeline.ingest(.user(UserUpdate(id: alice, timeZone: TimeZone.iana("Europe/Berlin"))))

        let (today, _) = try await pipeline.today(for: alice)
        var records: [InputRecord] = []
        for back in 1...28 {
            let day = today.adding(days: -back)
            var entry = UserEntry(user: alice, day: day)
            entry.symptomSeverity = .set(3 + back % 4)
            records.append(.entry(entry))
            records.append(.health(HealthMetrics(user: alice, day: day, hrv: 48.2, stepCount: 8042)))
        }
        try await pipeline.ingest(records)

        let models = PersonalModels(pipeline: pipeline)
        let outcome = try await models.retrain(user: alice)
        let tomorrow = try await models.forecast(user: alice, for: today.adding(days: 1))

        var options = LaunchOptions()
        options.conditions = FixedConditions(isOnExternalPower: true)
        let report = try await pipeline.launch(options)
        // --- end of README ---
        #expect(today == Day("2026-03-02"))
        #expect(outcome.promoted && outcome.reason.hasPrefix("serving: "))
        let interval = try #require(tomorrow.interval)
        #expect(tomorrow.source == .combined && tomorrow.severity == tomorrow.severity.rounded())
        #expect(interval.contains(tomorrow.severity))
        // The launch retrains with the pipeline's own models: every run succeeds, ml-retrain among them.
        #expect(report.unsuccessfulRunCount == 0)
        #expect(report.runs.contains { $0.identifier == PipelineTasks.mlRetrain && $0.outcome == .success })
        let stored = try #require(try await pipeline.dailyLog(user: alice, day: today.adding(days: -1)))
        #expect(stored.symptomSeverity == 4)
        #expect(stored.hrv == Sourced(48.2, .health))
    }
}
