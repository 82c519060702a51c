import Domain
import Foundation
import Scheduling
import Storage
import TestSupport
import Testing

/// iOS's cap on pending requests (`PendingRequestLimit.iOS`: one refresh and ten processing
/// requests per app), which the device simulation keeps; a server sets none.
@Suite("Pending-request limits", .timeLimit(.minutes(10)))
struct PendingLimitTests {
    static func harness(_ backend: TestBackend) throws -> SchedulerHarness {
        var configuration = SchedulerConfiguration()
        configuration.pendingRequestLimit = .iOS
        return try SchedulerHarness(backend, configuration: configuration)
    }

    static func refusal(_ error: any Error, identifier: TaskIdentifier, kind: TaskKind, limit: Int) -> Bool {
        guard case SchedulingError.tooManyPendingTaskRequests(let refused, let refusedKind, let refusedLimit) = error
        else { return false }
        return refused == identifier && refusedKind == kind && refusedLimit == limit
    }

    @Test(
        "one refresh request at a time: another task's is refused, the same task's replaces it",
        arguments: TestBackend.all)
    func oneRefresh(backend: TestBackend) async throws {
        let harness = try Self.harness(backend)
        let scheduler = harness.scheduler()
        try await scheduler.submit(AppRefreshTaskRequest(identifier: "refresh"), policy: .replace)
        await #expect {
            try await scheduler.submit(AppRefreshTaskRequest(identifier: "hourly"), policy: .replace)
        } throws: { Self.refusal($0, identifier: "hourly", kind: .appRefresh, limit: 1) }
        let later = harness.now.addingTimeInterval(3600)
        try await scheduler.submit(
            AppRefreshTaskRequest(identifier: "refresh", earliestBeginDate: later), policy: .replace)
        #expect(try await scheduler.pendingRequests().map(\.earliestBeginDate) == [later])
        // Processing requests have their own limit.
        try await scheduler.submit(ProcessingTaskRequest(identifier: "processing"), policy: .replace)
        #expect(try await scheduler.pendingRequests().count == 2)
    }

    @Test("ten processing requests at a time; the eleventh is refused", arguments: TestBackend.all)
    func tenProcessing(backend: TestBackend) async throws {
        let harness = try Self.harness(backend)
        let users = (1...11).map { "user-\($0)" }
        try await harness.addUsers(users)
        let scheduler = harness.scheduler()
        for user in users.prefix(10) {
            try await scheduler.submit(
                ProcessingTaskRequest(identifier: "processing", scope: .user(.literal(user))), policy: .replace)
        }
        await #expect {
            try await scheduler.submit(
                ProcessingTaskRequest(identifier: "processing", scope: .user(.literal("user-11"))), policy: .replace)
        } throws: { Self.refusal($0, identifier: "processing", kind: .processing, limit: 10) }
    }

    @Test(
        "a launch starts chains while there is room and logs the rest; a handler resubmits itself as it runs",
        arguments: TestBackend.all)
    func launchWithinLimit(backend: TestBackend) async throws {
        let harness = try Self.harness(backend)
        try await harness.addUsers(["ada"])
        let tasks = [
            TestTask.periodic("refresh", every: 3600), TestTask.periodic("hourly", every: 3600),
        ]
        let first = try await harness.launch(tasks)
        #expect(first.startedChains == 1)
        #expect(first.runs.map(\.identifier) == ["refresh"])
        #expect(first.runs.map(\.outcome) == [.success])
        #expect(try await harness.scheduler().pendingRequests().map(\.identifier) == ["refresh"])
        #expect(harness.log.lines().contains { $0.contains("hourly [ada]: chain not started") })
    }
}
