import Domain
import Foundation
import Storage
import TestSupport
import Testing

/// A watch item is its user, kind and payload, byte for byte: queued again, it is kept once.
@Suite("Watch item identity")
struct WatchItemIdentityTests {
    @Test(
        "the same item queued twice is one item with one id; another payload, kind or user is another item",
        arguments: TestBackend.all)
    func sameItemOnce(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        func submit(_ user: String, _ kind: String, _ payload: String) async throws -> Int64 {
            try await store.enqueue(
                WatchSubmission(user: .literal(user), kind: kind, payload: payload, enqueuedAt: database.clock.now))
        }
        let first = try await submit("ada", "stepsBurst", #"{"steps":100}"#)
        #expect(try await submit("ada", "stepsBurst", #"{"steps":100}"#) == first)
        let others = [
            try await submit("ada", "stepsBurst", #"{"steps": 100}"#),  // not the same bytes
            try await submit("ada", "heartNote", #"{"steps":100}"#),
            try await submit("bob", "stepsBurst", #"{"steps":100}"#),
        ]
        #expect(Set(others + [first]).count == 4)
        #expect(try await store.allWatchItems(user: nil).count == 4)
    }
}
