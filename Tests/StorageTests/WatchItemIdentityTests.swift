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
}
