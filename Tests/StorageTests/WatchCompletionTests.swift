import Domain
import Foundation
import Storage
import TestSupport
import Testing

/// A page of watch items applied together (`Store.stageCompletions`) keeps the queue's contract:
/// each item still queued is removed and applied, in the page's order, in the batch's transaction;
/// one another worker applied first is not applied again.
@Suite("Watch completions by the page")
struct WatchCompletionTests {
    static let ada = UserID.literal("ada")
    static let day = Day.literal("2026-03-10")

    static func severity(_ value: Int) -> UserEntry {
        var entry = UserEntry(user: ada, day: day)
        entry.symptomSeverity = .set(value)
        return entry
    }

    @Test(
        "items applied by another worker are skipped; the rest apply in page order and leave the queue",
        arguments: TestBackend.all)
    func pageSkipsWhatAnotherWorkerApplied(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        let other = try Store(path: database.path, clock: database.clock)
        var ids: [Int64] = []
        for value in 1...4 {
            ids.append(
                try await store.enqueue(
                    WatchSubmission(
                        user: Self.ada, kind: "symptomLog", payload: #"{"severity":\#(value)}"#,
                        enqueuedAt: database.clock.now)))
        }
        // Another worker applies the last item first: severity 4.
        #expect(try await other.complete(watchItem: ids[3], applying: Self.severity(4)))
        let page = (1...4).map { WatchCompletion(id: ids[$0 - 1], entry: Self.severity($0)) }
        let applied = try await store.batch { store in try store.stageCompletions(page) }
        #expect(applied == Set(ids[0..<3]))
        // Items 1, 2 and 3 applied in order over the other worker's 4: the last of them wins.
        #expect(try await store.dailyLog(user: Self.ada, day: Self.day)?.symptomSeverity == 3)
        #expect(try await store.allWatchItems(user: Self.ada).isEmpty)
        // The page again: nothing is queued, so nothing is applied.
        let again = try await store.batch { store in try store.stageCompletions(page) }
        #expect(again.isEmpty)
        #expect(try await store.dailyLog(user: Self.ada, day: Self.day)?.symptomSeverity == 3)
    }

    @Test("a page rolled back with its batch leaves every item queued and the day unwritten", arguments: TestBackend.all)
    func rolledBackPageKeepsTheQueue(backend: TestBackend) async throws {
        struct Stop: Error {}
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        let id = try await store.enqueue(
            WatchSubmission(user: Self.ada, kind: "symptomLog", payload: "{}", enqueuedAt: database.clock.now))
        await #expect(throws: Stop.self) {
            try await store.batch { store in
                _ = try store.stageCompletions([WatchCompletion(id: id, entry: Self.severity(5))])
                throw Stop()
            }
        }
        #expect(try await store.allWatchItems(user: Self.ada).map(\.id) == [id])
        #expect(try await store.dailyLog(user: Self.ada, day: Self.day) == nil)
    }
}
