import Domain
import Foundation
import Scheduling
import TestSupport
import Testing

@Suite("Retries", .timeLimit(.minutes(10)))
struct BackoffTests {
    @Test(
        "an unsuccessful run is retried after 1, 2, 4, 8, 16 minutes; a success ends the backoff",
        arguments: TestBackend.all)
    func exponentialBackoff(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada"])
        let failing = Locked(true)
        let task = TestTask(
            identifier: "daily",
            chainStart: { scope, _ in AppRefreshTaskRequest(identifier: "daily", scope: scope) },
            handler: { task in
                // First statement: the successor, one day after the date this request was due.
                let next = nextFixedRate(
                    after: task.earliestBeginDate ?? task.startedAt, every: 86_400, now: task.startedAt)
                _ = try? await task.scheduler.submit(
                    AppRefreshTaskRequest(identifier: "daily", scope: task.scope, earliestBeginDate: next),
                    policy: .replace)
                task.expirationHandler = {}
                task.setTaskCompleted(success: !failing.withLock { $0 })
            })

        var delays: [TimeInterval] = []
        for _ in 0..<5 {
            let report = try await harness.launch([task])
            #expect(report.runs.map(\.outcome) == [.failure])
            let retry = try #require(try await harness.scheduler().pendingRequests().first?.earliestBeginDate)
            let delay = retry.timeIntervalSince(harness.now)
            delays.append(delay)
            // Nothing runs before the retry is due.
            harness.clock.advance(by: delay - 1)
            #expect(try await harness.launch([task]).runs.isEmpty)
            harness.clock.advance(by: 1)
        }
        #expect(delays == [60, 120, 240, 480, 960])
        #expect(try await harness.history().map(\.attempt) == [1, 2, 3, 4, 5])

        failing.withLock { $0 = false }
        #expect(try await harness.launch([task]).runs.map(\.outcome) == [.success])
        let next = try #require(try await harness.scheduler().pendingRequests().first)
        #expect(next.attempts == 0)
        #expect(next.earliestBeginDate.map { $0 > harness.now.addingTimeInterval(86_400 - 3600) } == true)
    }

    @Test(
        "a failure before the successor was submitted makes the request itself pending again, with its attempts",
        arguments: TestBackend.all)
    func failureWithoutSuccessor(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada"])
        let task = TestTask(
            identifier: "daily",
            chainStart: { scope, _ in AppRefreshTaskRequest(identifier: "daily", scope: scope) },
            handler: { task in task.setTaskCompleted(success: false, reason: "could not start") })
        try await harness.launch([task])
        let pending = try await harness.scheduler().pendingRequests()
        #expect(pending.count == 1)
        #expect(pending.first?.attempts == 1)
        #expect(pending.first?.earliestBeginDate == harness.now.addingTimeInterval(60))
    }

    @Test("the retry delay doubles from the base and stops at the maximum")
    func delays() {
        var configuration = SchedulerConfiguration()
        configuration.retryBaseDelay = 30
        configuration.retryMaximumDelay = 3600
        #expect((1...9).map(configuration.retryDelay(afterAttempt:)) == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600])
        #expect(configuration.retryDelay(afterAttempt: 10_000) == 3600)
    }
}
