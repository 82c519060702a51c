import Domain
import Foundation
import Scheduling
import TestSupport
import Testing

/// DESIGN §8, bug 2. As in the app, a chain's first request is due one interval after the launch
/// that submits it. The launch submits it with `.keep`; had it submitted it for every user with
/// `.replace` (Apple's semantics) at every launch, each 15-minute launch would push the daily
/// request a day out again and it would never run. Checked by making `TaskScheduler.startChains`
/// submit for every user with `replacing: true`: the daily task ran 0 times and this test failed.
@Suite("Cadence over a month of cron launches", .timeLimit(.minutes(10)))
struct CadenceTests {
    @Test(
        "launched every 15 minutes for a month, a daily task runs exactly once a day and a 4-hourly one six times",
        arguments: TestBackend.all)
    func month(backend: TestBackend) async throws {
        let start = Date(iso: "2026-03-01T00:00:00Z")
        let harness = try SchedulerHarness(backend, now: start)
        try await harness.addUsers(["ada"])
        let tasks: [TestTask] = [
            .periodic("daily", every: 86_400, firstAfterInterval: harness.clock),
            .periodic("refresh", every: 4 * 3600, firstAfterInterval: harness.clock),
        ]
        // 31 days of launches: the daily chain's 30 runs fall on March 2 through 31.
        for _ in 0..<(31 * 96) {
            try await harness.launch(tasks)
            harness.clock.advance(by: 15 * 60)
        }
        let history = try await harness.history()
        #expect(history.allSatisfy { $0.outcome == .success })
        let daily = history.filter { $0.identifier == "daily" }
        #expect(daily.count == 30)
        let days = Dictionary(grouping: daily) { Day(containing: $0.startedAt, in: .utc) }
        #expect(days.keys.sorted() == (1...30).map { Day.literal("2026-03-01").adding(days: $0) })
        #expect(days.values.allSatisfy { $0.count == 1 })
        let refresh = history.filter { $0.identifier == "refresh" }
        #expect(refresh.count == 31 * 6 - 1)
        // Never early: consecutive runs of the 4-hourly task are at least 4 hours apart.
        let gaps = zip(refresh.dropFirst(), refresh).map { $0.startedAt.timeIntervalSince($1.startedAt) }
        #expect(gaps.allSatisfy { $0 >= 4 * 3600 })
        // The chains are intact: each has exactly one pending successor.
        #expect(try await harness.scheduler().pendingRequests().count == 2)
    }

    @Test(
        "a task never runs before its earliest begin date, only at the first launch after it",
        arguments: TestBackend.all)
    func notBeforeEarliestDate(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend, now: Date(iso: "2026-03-15T12:00:00Z"))
        try await harness.addUsers(["ada"])
        let due = Date(iso: "2026-03-15T12:07:00Z")
        let task = TestTask.periodic("daily", every: 86_400, firstAt: due)
        #expect(try await harness.launch([task]).runs.isEmpty)
        harness.clock.set(Date(iso: "2026-03-15T12:06:59Z"))
        #expect(try await harness.launch([task]).runs.isEmpty)
        harness.clock.set(Date(iso: "2026-03-15T12:15:00Z"))
        let run = try #require(try await harness.launch([task]).runs.first)
        #expect(run.startedAt == Date(iso: "2026-03-15T12:15:00Z"))
    }
}
