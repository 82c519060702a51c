import Domain
import Foundation
import Scheduling
import Storage
import TestSupport
import Testing

@Suite("Leases", .timeLimit(.minutes(10)))
struct LeaseTests {
    /// Claims the due request as a worker of another process would, and never finishes it: the
    /// state a worker killed mid-run leaves behind.
    static func claimAndDie(_ harness: SchedulerHarness, identifier: String = "daily") async throws {
        let claimed = try await harness.store.claimTaskRequests(
            TaskClaim(
                owner: "other-host:4242:dead/1", refreshLease: 40, processingLease: 610, isOnExternalPower: true,
                hasNetworkConnectivity: true, identifiers: [identifier], scope: nil, limit: 1))
        try #require(claimed.count == 1)
    }

    @Test(
        "a request whose worker died runs again once its lease expires; the dead run is recorded as a failure",
        arguments: TestBackend.all)
    func abandonedRequestIsReclaimed(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada"])
        let daily = TestTask.periodic("daily", every: 86_400)
        try await harness.launch([daily], plan: LaunchPlan(identifiers: [], jobs: 1))  // starts the chain only
        try await Self.claimAndDie(harness)

        // While the lease holds, another launch leaves it alone.
        let during = try await harness.launch([daily])
        #expect(during.runs.isEmpty)
        #expect(during.runningElsewhere.map(\.identifier) == ["daily"])

        harness.clock.advance(by: 40)
        let after = try await harness.launch([daily])
        #expect(after.reclaimed == 1)
        #expect(after.runs.map(\.outcome) == [.success])
        let history = try await harness.history()
        #expect(history.map(\.outcome) == [.failure, .success])
        #expect(history.map(\.attempt) == [1, 2])
        #expect(history.first?.reason == "lease expired: worker died")
        #expect(history.first?.worker == "other-host:4242:dead/1")
        // The dead run ended when its lease did.
        #expect(history.first?.finishedAt == history.first?.startedAt.addingTimeInterval(40))
        #expect(try await harness.scheduler().pendingRequests().map(\.attempts) == [0])
    }

    @Test(
        "a worker that finishes after losing its lease records nothing: the run is recorded once",
        arguments: TestBackend.all)
    func lateFinishIsNotRecorded(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada"])
        let (started, release) = (Gate(), Gate())
        let runs = Locked(0)
        let slow = TestTask(
            identifier: "daily",
            chainStart: { scope, _ in AppRefreshTaskRequest(identifier: "daily", scope: scope) },
            handler: { task in
                let first = runs.withLock { count in
                    count += 1
                    return count == 1
                }
                task.expirationHandler = {}
                if first {
                    started.open()
                    await release.wait()
                }
                _ = try? await task.scheduler.submit(
                    AppRefreshTaskRequest(
                        identifier: "daily", scope: task.scope, earliestBeginDate: task.startedAt + 86_400),
                    policy: .replace)
                task.setTaskCompleted(success: true)
            })
        async let stalled = harness.launch([slow])
        await started.waitOrCancellation()
        // The lease (30 s budget + 10 s grace) runs out without the timer firing the budget, as if the
        // worker hung; a second process takes the request over and runs it.
        harness.clock.advance(by: 41)
        let other = try Store(path: harness.database.path, clock: harness.clock)
        let takeover = try await harness.launch([slow], store: other)
        #expect(takeover.reclaimed == 1)
        #expect(takeover.runs.map(\.outcome) == [.success])
        release.open()
        #expect(try await stalled.runs.isEmpty)
        #expect(try await harness.history().map(\.outcome) == [.failure, .success])
        #expect(harness.log.lines(atLeast: .warning).contains { $0.contains("another worker took it over") })
    }

    @Test("launches running at once on one database never run a request twice", arguments: TestBackend.all)
    func overlappingLaunches(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        let users = (0..<40).map { "user\($0)" }
        try await harness.addUsers(users)
        let tasks: [TestTask] = [.periodic("daily", every: 86_400), .periodic("refresh", every: 4 * 3600)]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    // Its own connection, as a separate process has.
                    let store = try Store(path: harness.database.path, clock: harness.clock)
                    try await harness.launch(tasks, plan: LaunchPlan(jobs: 3), store: store)
                }
            }
            try await group.waitForAll()
        }
        let history = try await harness.history()
        #expect(history.count == users.count * 2)
        let perRequest = Dictionary(grouping: history) { "\($0.identifier) \($0.scope)" }
        #expect(perRequest.count == users.count * 2)
        #expect(perRequest.values.allSatisfy { $0.count == 1 })
        #expect(history.allSatisfy { $0.outcome == .success })
    }

    @Test(
        "a lease holds until a claim takes it over, and is its attempt's: a takeover under the same owner refuses the old run",
        arguments: TestBackend.all)
    func leaseIsOwnerAndAttempt(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada", "bob"])
        let daily = TestTask.periodic("daily", every: 86_400)
        try await harness.launch([daily], plan: LaunchPlan(identifiers: [], jobs: 1))  // the chains only
        let store = harness.store
        let owner = "host:1:a/1"
        func claim(_ scope: String) async throws -> ClaimedTaskRequest {
            let claimed = try await store.claimTaskRequests(
                TaskClaim(
                    owner: owner, refreshLease: 40, processingLease: 610, isOnExternalPower: true,
                    hasNetworkConnectivity: true, identifiers: ["daily"], scope: scope, limit: 1))
            return try #require(claimed.first)
        }
        func completion(_ claimed: ClaimedTaskRequest) -> TaskRunCompletion {
            let user = UserID.literal(claimed.request.scope)
            let message = NewOutboxMessage(
                user: user, kind: "test", day: Day(containing: harness.now, in: .utc), body: "hello")
            return TaskRunCompletion(
                claimed, owner: owner, outcome: .success, reason: nil, retryAt: nil,
                writes: [.post(message), .save(BatchTests.model(.user(user), at: harness.now))])
        }
        let ada = try await claim("ada")
        let bob = try await claim("bob")
        harness.clock.advance(by: 41)

        // ada's lease expired and no claim took it over: it holds, and her run is recorded with its writes.
        #expect(try await store.holdsLease(ada.lease(owner: owner)))
        #expect(try await store.finishTaskRun(completion(ada)) == .recorded(successorPending: false))
        #expect(try await store.outboxMessages(user: .literal("ada")).count == 1)
        #expect(try await store.servingModel(scope: "ada") != nil)

        // bob's is taken over by a claim under the same owner name: the first attempt's lease no longer holds,
        // and its run's record and writes are refused; the second attempt's are recorded.
        let again = try await claim("bob")
        #expect(again.request.id == bob.request.id && again.request.attempts == 2)
        #expect(try await !store.holdsLease(bob.lease(owner: owner)))
        #expect(try await store.holdsLease(again.lease(owner: owner)))
        #expect(try await store.finishTaskRuns([completion(bob)]) == [.leaseLost])
        #expect(try await store.outboxMessages(user: .literal("bob")).isEmpty)
        #expect(try await store.servingModel(scope: "bob") == nil)
        #expect(try await store.finishTaskRun(completion(again)) == .recorded(successorPending: false))
        let runs = try await store.taskRuns(scope: "bob")
        #expect(runs.map(\.attempt) == [1, 2])
        #expect(runs.map(\.outcome) == [.failure, .success])
        #expect(runs.first?.reason == "lease expired: worker died")
        #expect(try await store.outboxMessages(user: .literal("bob")).count == 1)
    }
}
