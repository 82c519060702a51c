import Domain
import Foundation
import Scheduling
import Storage
import TestSupport
import Testing

@Suite("Submitting requests", .timeLimit(.minutes(10)))
struct SubmitPolicyTests {
    @Test(
        ".replace replaces the pending request of the same identifier and scope; other scopes are separate",
        arguments: TestBackend.all)
    func replace(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        let scheduler = harness.scheduler()
        let first = harness.now.addingTimeInterval(3600)
        let second = harness.now.addingTimeInterval(7200)
        try await scheduler.submit(
            AppRefreshTaskRequest(identifier: "daily", scope: .user(.ada), earliestBeginDate: first), policy: .replace)
        try await scheduler.submit(
            AppRefreshTaskRequest(identifier: "daily", scope: .user(.bob), earliestBeginDate: first), policy: .replace)
        try await scheduler.submit(
            AppRefreshTaskRequest(identifier: "daily", scope: .user(.ada), earliestBeginDate: second), policy: .replace)
        let ada = try await scheduler.pendingRequests(identifier: "daily", scope: .user(.ada))
        #expect(ada.map(\.earliestBeginDate) == [second])
        #expect(
            try await scheduler.pendingRequests(identifier: "daily", scope: .user(.bob)).map(\.earliestBeginDate) == [
                first
            ])
    }

    @Test(".keep inserts only when no request of that identifier and scope exists", arguments: TestBackend.all)
    func keep(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        let scheduler = harness.scheduler()
        let first = harness.now.addingTimeInterval(3600)
        #expect(
            try await scheduler.submit(
                AppRefreshTaskRequest(identifier: "daily", scope: .user(.ada), earliestBeginDate: first), policy: .keep)
        )
        #expect(
            !(try await scheduler.submit(
                AppRefreshTaskRequest(identifier: "daily", scope: .user(.ada), earliestBeginDate: harness.now),
                policy: .keep)))
        #expect(try await scheduler.pendingRequests().map(\.earliestBeginDate) == [first])
        #expect(try await scheduler.submit(AppRefreshTaskRequest(identifier: "daily", scope: .global), policy: .keep))
        #expect(try await scheduler.pendingRequests().count == 2)
    }

    @Test(".keep submits nothing while the request of that identifier and scope is running", arguments: TestBackend.all)
    func keepWhileRunning(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada"])
        let inside = Gate()
        let results = Results()
        let task = TestTask(
            identifier: "daily",
            chainStart: { scope, _ in AppRefreshTaskRequest(identifier: "daily", scope: scope) },
            handler: { task in
                // While this request runs (leased, not pending), a .keep from another launch is a no-op.
                let kept =
                    (try? await task.scheduler.submit(
                        AppRefreshTaskRequest(identifier: "daily", scope: task.scope), policy: .keep)) ?? true
                results.append(kept)
                inside.open()
                task.setTaskCompleted(success: true)
            })
        try await harness.launch([task])
        #expect(inside.isOpen)
        #expect(results.values == [false])
    }

    @Test(
        "processing requests keep their conditions; a request survives reopening the database",
        arguments: TestBackend.all)
    func persisted(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        let date = harness.now.addingTimeInterval(600)
        try await harness.scheduler().submit(
            ProcessingTaskRequest(
                identifier: "processing", scope: .user(.ada), earliestBeginDate: date, requiresExternalPower: true,
                requiresNetworkConnectivity: true), policy: .replace)
        let reopened = try Store(path: harness.database.path, clock: harness.clock)
        let pending = try #require(try await harness.scheduler(store: reopened).pendingRequests().first)
        #expect(pending.identifier == "processing")
        #expect(pending.scope == .user(.ada))
        #expect(pending.kind == .processing)
        #expect(pending.earliestBeginDate == date)
        #expect(pending.requiresExternalPower && pending.requiresNetworkConnectivity)
    }

    @Test("cancel removes pending requests of one identifier and scope, or all of them", arguments: TestBackend.all)
    func cancel(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        let scheduler = harness.scheduler()
        for scope in [TaskScope.user(.ada), .user(.bob), .global] {
            try await scheduler.submit(AppRefreshTaskRequest(identifier: "daily", scope: scope), policy: .replace)
            try await scheduler.submit(AppRefreshTaskRequest(identifier: "hourly", scope: scope), policy: .replace)
        }
        #expect(try await scheduler.cancel(identifier: "daily", scope: .user(.ada)) == 1)
        #expect(try await scheduler.pendingRequests().count == 5)
        #expect(try await scheduler.cancel(identifier: "hourly") == 3)
        #expect(try await scheduler.cancel() == 2)
        #expect(try await scheduler.pendingRequests().isEmpty)
    }

    @Test(
        "stores in parallel submitting .keep and .replace for one identifier and scope leave one pending request",
        arguments: TestBackend.all)
    func concurrentSubmitters(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        let path = harness.database.path
        let clock = harness.clock
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    // Each has its own connection, as separate processes would.
                    let store = try Store(path: path, clock: clock)
                    let scheduler = TaskScheduler(store: store, permittedIdentifiers: ["daily"], clock: clock)
                    for round in 0..<20 {
                        let request = AppRefreshTaskRequest(
                            identifier: "daily", scope: .user(.ada),
                            earliestBeginDate: clock.now.addingTimeInterval(Double(index * 100 + round)))
                        try await scheduler.submit(request, policy: round.isMultiple(of: 2) ? .keep : .replace)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await harness.scheduler().pendingRequests().count == 1)
    }
}

/// Values collected from handlers.
final class Results: Sendable {
    private let storage = Locked<[Bool]>([])
    func append(_ value: Bool) { storage.withLock { $0.append(value) } }
    var values: [Bool] { storage.withLock { $0 } }
}
