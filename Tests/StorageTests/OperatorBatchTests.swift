import Domain
import Foundation
import TestSupport
import Testing

@testable import Storage

/// An operator cancels or puts back every request of a task at once (`pipeline requests cancel`, `retry`): a few
/// statements whatever their number, with what doing it request by request leaves.
@Suite("Cancelling and putting back many requests")
struct OperatorBatchTests {
    static func request(_ scope: String, _ kind: TaskRequestKind = .refresh) -> NewTaskRequest {
        NewTaskRequest(identifier: "daily", scope: scope, kind: kind, earliestBeginAt: nil)
    }

    @Test(
        "cancelling a task's requests discards the pending, leaves the running; putting back leaves one per chain",
        arguments: TestBackend.all)
    func cancelAndPutBack(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        try await store.submit((0..<300).map { Self.request("user-\($0)") }, replacing: false)
        let running = try await store.claimTaskRequests(
            TaskClaim(
                owner: "w", refreshLease: 600, processingLease: 600, isOnExternalPower: true,
                hasNetworkConnectivity: true, identifiers: ["daily"], scope: nil, limit: 7))
        #expect(running.count == 7)

        let cancellation = try await store.cancelTaskRequests(ids: nil, identifier: "daily", scope: nil)
        #expect(cancellation.running.sorted() == running.map(\.request.id).sorted())
        #expect(cancellation.cancelled.count == 293)
        let discarded = try await store.discardedTaskRequests(identifier: "daily")
        #expect(discarded.map(\.request.id).sorted() == cancellation.cancelled.sorted())
        #expect(discarded.allSatisfy { $0.cause == .cancelled })
        #expect(try await store.taskRequests(identifier: "daily").map(\.id).sorted() == cancellation.running.sorted())

        // A chain discarded twice: submitted again, replacing, and cancelled again.
        let twice = discarded[0].request.scope
        try await store.submit(Self.request(twice, .processing), replacing: true)
        #expect(try await store.cancelTaskRequests(ids: nil, identifier: "daily", scope: twice).cancelled.count == 1)
        let all = try await store.discardedTaskRequests(identifier: "daily").map(\.request.id)
        #expect(all.count == 294)

        database.clock.advance(by: 60)
        let putBack = try await store.retryDiscardedTaskRequests(ids: all, identifier: nil, scope: nil)
        #expect(putBack == all.sorted())
        #expect(try await store.discardedTaskRequests().isEmpty)
        let pending = try await store.taskRequests(identifier: "daily").filter { $0.leaseOwner == nil }
        #expect(pending.map(\.scope).sorted() == Set(discarded.map(\.request.scope)).sorted())
        let now = Store.milliseconds(database.clock.now)
        #expect(pending.allSatisfy { $0.attempts == 0 && $0.earliestBeginAt.map(Store.milliseconds) == now })
    }
}
