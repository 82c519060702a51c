import Domain
import Foundation
import PipelineKit
import Scheduling
import Storage
import TestSupport
import Testing

/// The four real tasks under a month of cron: `pipeline run` every 15 minutes (DESIGN §8, bug 2).
@Suite("A month of launches", .timeLimit(.minutes(10)))
struct LaunchMonthTests {
    @Test(
        "every 15 minutes for 30 days: each task keeps its cadence, never starved and never doubled",
        arguments: TestBackend.all)
    func month(backend: TestBackend) async throws {
        let start = Date(iso: "2026-03-01T00:00:00Z")
        let harness = try await LaunchHarness(backend, now: start)
        try await harness.addUser("ada", timeZone: "America/Los_Angeles")
        for _ in 0..<(30 * 96) {
            try await harness.launch()
            harness.clock.advance(by: 15 * 60)
        }
        let runs = try await harness.history()
        #expect(runs.allSatisfy { $0.outcome == .success })
        let zone = TimeZone.iana("America/Los_Angeles")!
        func perLocalDay(_ task: TaskIdentifier) -> [Day: Int] {
            Dictionary(grouping: runs.filter { $0.identifier == task }) { Day(containing: $0.startedAt, in: zone) }
                .mapValues(\.count)
        }
        // engagement-daily: once on each local day from Feb 28 (the first launch is at 16:00 local
        // on Feb 28) to Mar 29 (the last is at 16:45 local on Mar 30), always at 20:00 local, across
        // the US daylight-saving change on Mar 8.
        let engagement = runs.filter { $0.identifier == PipelineTasks.engagementDaily }
        #expect(engagement.count == 30)
        #expect(perLocalDay(PipelineTasks.engagementDaily).values.allSatisfy { $0 == 1 })
        #expect(
            engagement.allSatisfy {
                Day(containing: $0.startedAt, in: zone).localTime(hour: 20, in: zone) == $0.startedAt
            })
        // health-refresh: six times a day; ml-retrain: at the first launch, then every night at
        // 03:00 local, from Mar 1 to Mar 30.
        #expect(runs.filter { $0.identifier == PipelineTasks.healthRefresh }.count == 30 * 6)
        let retrains = runs.filter { $0.identifier == PipelineTasks.mlRetrain }
        #expect(retrains.first?.startedAt == start)
        #expect(
            retrains.dropFirst().map(\.startedAt)
                == (1...30).map { Day(year: 2026, month: 3, day: $0)!.localTime(hour: 3, in: zone) })
        #expect(harness.model.retrains.count == 31)
        // weekly-insight: the Sundays Mar 1, 8, 15, 22, 29, at 20:00 local.
        let insights = runs.filter { $0.identifier == PipelineTasks.weeklyInsight }
        #expect(
            insights.map { Day(containing: $0.startedAt, in: zone) }
                == [1, 8, 15, 22, 29].map { Day(year: 2026, month: 3, day: $0)! })
        // One reminder a day (no entries were made) and one insight a week.
        let outbox = try await harness.pipeline.outbox()
        #expect(outbox.filter { $0.kind == OutboxKind.logReminder }.count == 30)
        #expect(outbox.filter { $0.kind == OutboxKind.weeklyInsight }.count == 5)
    }
}
