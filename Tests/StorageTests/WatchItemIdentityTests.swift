import Domain
import Foundation
import Storage
import TestSupport
import Testing

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
}
