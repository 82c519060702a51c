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

    @Test(
        "requeueing many dead letters gives each a new item of its own, ids rising above every id, once",
        arguments: TestBackend.all)
    func requeueManyDeadLetters(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        let users = [UserID.literal("ada"), .literal("bob")]
        var letters: [Int64] = []
        for index in 0..<40 {
            let id = try await store.enqueue(
                WatchSubmission(
                    user: users[index % 2], kind: "symptomLog", payload: #"{"n":\#(index)}"#,
                    enqueuedAt: database.clock.now))
            for _ in 0..<WatchItem.maxAttempts { try await store.recordFailure(watchItem: id, error: "bad") }
            letters.append(id)
        }
        let live = try await store.enqueue(
            WatchSubmission(user: users[0], kind: "symptomLog", payload: "{}", enqueuedAt: database.clock.now))
        database.clock.advance(by: 60)

        // Bob's alone, then every one left: each letter once, its item above every id there was.
        let bobs = try await store.requeueDeadLetters(ids: nil, user: users[1])
        #expect(bobs.keys.sorted() == letters.enumerated().filter { $0.offset % 2 == 1 }.map(\.element))
        let rest = try await store.requeueDeadLetters(ids: nil, user: nil)
        #expect(rest.keys.sorted() == letters.enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
        #expect(try await store.requeueDeadLetters(ids: letters, user: nil).isEmpty)
        #expect(try await store.requeueDeadLetters(ids: nil, user: nil).isEmpty)

        let requeued = bobs.merging(rest) { first, _ in first }
        let bobsItems = bobs.keys.sorted().map { bobs[$0]! }
        #expect(bobsItems == bobsItems.sorted(), "items rise with their letters")
        #expect(bobsItems.min()! > max(letters.max()!, live))
        #expect(rest.values.min()! > bobsItems.max()!)
        let items = Dictionary(uniqueKeysWithValues: try await store.allWatchItems(user: nil).map { ($0.id, $0) })
        #expect(items.count == 41)
        let stored = try await store.deadLetters(user: nil, includeResolved: true)
        #expect(stored.count == 40)
        for letter in stored {
            let itemID = try #require(letter.requeuedAs)
            let item = try #require(items[itemID])
            #expect(requeued[letter.item.id] == item.id)
            #expect(letter.resolvedAt == database.clock.now)
            #expect(item.user == letter.item.user && item.kind == letter.item.kind)
            #expect(item.payload == letter.item.payload)
            #expect(item.attempts == 0 && item.enqueuedAt == database.clock.now)
        }
    }
}
