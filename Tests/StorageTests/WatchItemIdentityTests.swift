import Domain
import Foundation
import TestSupport
import Testing

@testable import Storage

/// A queued-as-is watch item is its user, kind, payload (byte for byte) and occurrence: queued
/// again it is kept once; another copy number, payload, kind or user is another item.
@Suite("Watch item identity")
struct WatchItemIdentityTests {
    @Test(
        "the same copy of an item queued twice is one item with one id; anything else is another item",
        arguments: TestBackend.all)
    func sameItemOnce(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        func submit(_ user: String, _ kind: String, _ payload: String, _ occurrence: Int?) async throws -> Int64 {
            try await store.enqueue(
                WatchSubmission(
                    user: .literal(user), kind: kind, payload: payload, enqueuedAt: database.clock.now,
                    occurrence: occurrence))
        }
        let first = try await submit("ada", "stepsBurst", #"{"steps":100}"#, 1)
        #expect(try await submit("ada", "stepsBurst", #"{"steps":100}"#, 1) == first)
        let others = [
            try await submit("ada", "stepsBurst", #"{"steps":100}"#, 2),  // its second copy
            try await submit("ada", "stepsBurst", #"{"steps": 100}"#, 1),  // not the same bytes
            try await submit("ada", "heartNote", #"{"steps":100}"#, 1),
            try await submit("bob", "stepsBurst", #"{"steps":100}"#, 1),
            // Items without an occurrence (those that are applied) are never merged.
            try await submit("ada", "symptomLog", #"{"day":"2026-03-01","mood":3}"#, nil),
            try await submit("ada", "symptomLog", #"{"day":"2026-03-01","mood":3}"#, nil),
        ]
        #expect(Set(others + [first]).count == 7)
        #expect(try await store.allWatchItems(user: nil).count == 7)
    }

    @Test(
        "items queued before the identity index held only kept items keep their identity after the migration",
        arguments: TestBackend.all)
    func identityAcrossMigration(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let kept = WatchSubmission(
            user: .literal("ada"), kind: "stepsBurst", payload: #"{"steps":100}"#, enqueuedAt: database.clock.now,
            occurrence: 1)
        let applied = WatchSubmission(
            user: .literal("ada"), kind: "symptomLog", payload: #"{"day":"2026-03-01","mood":3}"#,
            enqueuedAt: database.clock.now)
        let keptID: Int64
        do {
            // Version 9: the index before migration 0010, over every item.
            let old = try Store(path: database.path, clock: database.clock, schemaVersion: 9)
            keptID = try await old.enqueue(kept)
            _ = try await old.enqueue(applied)
        }
        let store = try Store(path: database.path, clock: database.clock)
        #expect(try await store.schemaVersion() == Store.latestSchemaVersion)
        #expect(try await store.enqueue(kept) == keptID)
        _ = try await store.enqueue(applied)
        var second = kept
        second.occurrence = 2
        #expect(try await store.enqueue(second) != keptID)
        #expect(try await store.allWatchItems(user: nil).count == 4)
    }

    /// 100 submissions for two users: applied items (no occurrence) and kept ones, one kept copy twice
    /// in one run of 32 and another queued before them.
    static func manySubmissions(now: Date) -> (before: WatchSubmission, staged: [WatchSubmission]) {
        var staged = (0..<100).map { index in
            let user = UserID.literal(index % 3 == 0 ? "bo" : "ada")
            if index % 5 == 0 {
                return WatchSubmission(
                    user: user, kind: "stepsBurst", payload: #"{"steps":\#(index % 4)}"#, enqueuedAt: now,
                    occurrence: 1 + index / 10)
            }
            return WatchSubmission(
                user: user, kind: "symptomLog", payload: #"{"day":"2026-03-01","symptomSeverity":\#(index % 11)}"#,
                enqueuedAt: now)
        }
        // Index 20 repeats index 0's copy ("bo", steps 0, occurrence 1); index 45's is queued before.
        staged[20] = staged[0]
        return (staged[45], staged)
    }

    @Test(
        "queueing many items in one call queues what queueing them one at a time queues, in order, each copy once",
        arguments: TestBackend.all)
    func manyItemsAtOnce(backend: TestBackend) async throws {
        var queued: [[WatchItem]] = []
        for together in [false, true] {
            let database = TestDatabase(backend)
            let store = try Store(path: database.path, clock: database.clock)
            let (before, staged) = Self.manySubmissions(now: database.clock.now)
            _ = try await store.enqueue(before)
            let refusals = try await store.batch { store in
                together ? try store.stage(staged).count : try staged.compactMap { try store.stage(.watch($0)) }.count
            }
            #expect(refusals == 0)
            queued.append(try await store.allWatchItems(user: nil))
        }
        // The queued-before item, then 99 of the 100 less the repeat of index 0 and index 45's copy.
        #expect(queued[0].count == 99)
        #expect(queued[1].map(\.payload) == queued[0].map(\.payload))
        #expect(queued[1].map(\.user) == queued[0].map(\.user))
        #expect(queued[1].map(\.kind) == queued[0].map(\.kind))
        #expect(zip(queued[1], queued[1].dropFirst()).allSatisfy { $0.id < $1.id })
    }

    @Test("an item SQLite refuses in a run of many is refused alone, at its index, and the rest are queued")
    func refusalInsideARun() async throws {
        let database = TestDatabase()
        let store = try Store(path: database.path, clock: database.clock)
        var staged = Self.manySubmissions(now: database.clock.now).staged
        // The payload must be JSON and the kind not empty (the table's CHECKs); the caller was to check.
        staged[3].payload = "{"
        staged[70].kind = ""
        let items = staged
        let refusals = try await store.batch { store in try store.stage(items).map(\.index) }
        #expect(refusals == [3, 70])
        let queued = try await store.allWatchItems(user: nil)
        #expect(queued.count == 97)
        #expect(!queued.contains { $0.payload == "{" || $0.kind.isEmpty })
    }
}
