import Domain
import Foundation
import Scheduling
import Storage
import TestSupport
import Testing

@Suite("Status diagnostics", .timeLimit(.minutes(10)))
struct StatusTests {
    static let registered: [(identifier: TaskIdentifier, scope: ChainScope)] = [
        ("daily", .everyUser), ("global-sweep", .global),
    ]

    @Test(
        "a database that was never launched shows every chain as registered but never submitted (DESIGN §8, bug 1)",
        arguments: TestBackend.all)
    func neverSubmitted(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada", "bob"])
        let status = try await harness.scheduler().status(of: Self.registered)
        #expect(
            Set(status.neverSubmitted.map { "\($0.identifier) \($0.scope)" })
                == ["daily ada", "daily bob", "global-sweep global"])
        #expect(status.hasProblems)

        try await harness.launch([
            .periodic("daily", every: 86_400, firstAt: harness.now + 3600),
            .periodic("global-sweep", every: 3600, scope: .global, firstAt: harness.now + 3600),
        ])
        let launched = try await harness.scheduler().status(of: Self.registered)
        #expect(launched.neverSubmitted.isEmpty)
        #expect(!launched.hasProblems)
        #expect(launched.tasks.map(\.pending) == [2, 1])
    }

    /// A handler that does not reschedule itself (DESIGN §8, bug 10) is caught when it finishes: the
    /// run records that no successor was pending, and status reports it until a run reschedules.
    @Test(
        "a handler that finished without submitting its successor shows as a broken chain (DESIGN §8, bug 10)",
        arguments: TestBackend.all)
    func brokenChain(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada"])
        let forgetful = TestTask(
            identifier: "daily",
            chainStart: { scope, _ in AppRefreshTaskRequest(identifier: "daily", scope: scope) },
            handler: { task in task.setTaskCompleted(success: true) })
        try await harness.launch([forgetful])
        let status = try await harness.scheduler().status(of: Self.registered)
        #expect(status.brokenChains.map { "\($0.identifier) \($0.scope)" } == ["daily ada"])
        #expect(harness.log.lines(atLeast: .warning).contains { $0.contains("the chain is broken") })

        // A handler that reschedules itself mends it.
        harness.clock.advance(by: 900)
        try await harness.launch([.periodic("daily", every: 86_400)])
        #expect(try await harness.scheduler().status(of: Self.registered).brokenChains.isEmpty)
    }

    @Test(
        "a request whose worker died is counted abandoned and reported stuck as soon as its lease expires",
        arguments: TestBackend.all)
    func stuck(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada"])
        try await harness.launch(
            [.periodic("daily", every: 86_400)], plan: LaunchPlan(identifiers: [], jobs: 1))
        try await LeaseTests.claimAndDie(harness)
        // The lease covers the 30 s budget and the 10 s grace.
        harness.clock.advance(by: 40 - 1)
        let running = try await harness.scheduler().status(of: Self.registered)
        #expect(running.stuck.isEmpty)
        let leased = try #require(running.tasks.first { $0.identifier == "daily" })
        #expect(leased.running == 1 && leased.abandoned == 0)
        harness.clock.advance(by: 1)
        let status = try await harness.scheduler().status(of: Self.registered)
        #expect(status.stuck.map(\.identifier) == ["daily"])
        #expect(status.stuck.first?.lease?.owner == "other-host:4242:dead/1")
        let abandoned = try #require(status.tasks.first { $0.identifier == "daily" })
        #expect(abandoned.running == 0 && abandoned.abandoned == 1)
        #expect(status.hasProblems)
    }

    @Test("requests of identifiers this version does not register are reported", arguments: TestBackend.all)
    func unregistered(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.scheduler().submit(
            AppRefreshTaskRequest(identifier: "hourly", scope: .global), policy: .replace)
        let status = try await harness.scheduler().status(of: Self.registered)
        #expect(status.unregistered == ["hourly": 1])
    }

    @Test(
        "status counts pending, due and running requests, runs by outcome and the last success",
        arguments: TestBackend.all)
    func counts(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada", "bob", "cy"])
        try await harness.launch([.periodic("daily", every: 86_400)], plan: LaunchPlan(scope: .user(.ada), jobs: 1))
        try await LeaseTests.claimAndDie(harness)
        let status = try await harness.scheduler().status(of: Self.registered)
        let daily = try #require(status.tasks.first)
        #expect(daily.pending == 2)  // ada's successor and cy's first request
        #expect(daily.due == 1)  // cy
        #expect(daily.running == 1)  // bob, claimed by the other worker
        #expect(daily.runs == [.success: 1])
        #expect(daily.lastSuccess == harness.now)
    }
}
