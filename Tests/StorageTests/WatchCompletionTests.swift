import Domain
import Foundation
import TestSupport
import Testing

@testable import Storage

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

    @Test(
        "a page rolled back with its batch leaves every item queued and the day unwritten", arguments: TestBackend.all)
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

    /// 400 entries over 40 days of two users: most only set fields; two in a hundred clear one.
    static func entries(_ random: inout SeededRandom) -> [UserEntry] {
        (0..<400).map { index in
            var entry = UserEntry(
                user: .literal(index % 7 == 0 ? "bo" : "ada"), day: day.adding(days: Int(random.next() % 40)))
            func patch<V>(_ values: [V]) -> Patch<V> {
                random.chance(0.4) ? .set(values[Int(random.next() % UInt64(values.count))]) : .unchanged
            }
            entry.symptomSeverity = patch([0, 4, 10])
            entry.mood = patch([1, 5])
            entry.energy = patch([2, 3])
            entry.notes = patch(["slept \"badly\"", ""])
            entry.hrv = patch([40, 41.25])
            entry.restingHeartRate = patch([55, 61.5])
            entry.stepCount = patch([0, 200_000])
            entry.sleepDuration = patch([0, 27_000.5])
            // Runs of 32 with a clearing entry are applied one by one, the others together.
            if index % 100 == 17 { entry.mood = .clear }
            if index % 100 == 81 { entry.hrv = .clear }
            return entry
        }
    }

    @Test(
        "a page of 400 entries, days repeated and some fields cleared, over user and health rows, applies as one by one",
        arguments: TestBackend.all)
    func pageAppliesAsOneByOne(backend: TestBackend) async throws {
        var random = SeededRandom(seed: 47)
        let entries = Self.entries(&random)
        var stored: [[DailyLog]] = []
        for together in [false, true] {
            let database = TestDatabase(backend)
            let store = try Store(path: database.path, clock: database.clock)
            // Rows before: health readings on even days, a user's on every third.
            for offset in 0..<40 {
                for user in ["ada", "bo"] {
                    let day = Self.day.adding(days: offset)
                    if offset % 2 == 0 {
                        try await store.write(
                            HealthMetrics(
                                user: .literal(user), day: day, hrv: 70, restingHeartRate: 58, stepCount: 9_000))
                    }
                    if offset % 3 == 0 {
                        var entry = UserEntry(user: .literal(user), day: day)
                        entry.sleepDuration = .set(25_000)
                        entry.symptomSeverity = .set(6)
                        try await store.write(entry)
                    }
                }
            }
            var page: [WatchCompletion] = []
            for entry in entries {
                let id = try await store.enqueue(
                    WatchSubmission(
                        user: entry.user, kind: "symptomLog", payload: "{}", enqueuedAt: database.clock.now))
                page.append(WatchCompletion(id: id, entry: entry))
            }
            if together {
                let completions = page
                #expect(try await store.batch { store in try store.stageCompletions(completions) }.count == 400)
            } else {
                for completion in page {
                    #expect(try await store.complete(watchItem: completion.id, applying: completion.entry))
                }
            }
            #expect(try await store.allWatchItems(user: nil).isEmpty)
            stored.append(try await store.dailyLogs(user: .literal("ada")) + store.dailyLogs(user: .literal("bo")))
        }
        #expect(stored[0].count > 60)
        let differing = zip(stored[0], stored[1]).filter { $0 != $1 }.map { "\($0.0.user) \($0.0.day)" }
        #expect(stored[1].count == stored[0].count && differing.isEmpty, "applied otherwise: \(differing.prefix(5))")
    }

    @Test("on SQLite a page's entries that change nothing leave their day's row unwritten, its updated_at too")
    func unchangedDaysAreNotWritten() async throws {
        let database = TestDatabase(.sqlite)
        let store = try Store(path: database.path, clock: database.clock)
        // 32 days (one statement's run), each with the values its entry will bring again.
        let days = (0..<32).map { Self.day.adding(days: $0) }
        func entry(_ day: Day, severity: Int) -> UserEntry {
            var entry = UserEntry(user: Self.ada, day: day)
            entry.symptomSeverity = .set(severity)
            entry.sleepDuration = .set(25_000)
            return entry
        }
        for day in days { try await store.write(entry(day, severity: 4)) }
        let written = Int64(database.clock.now.timeIntervalSince1970 * 1000)
        database.clock.advance(by: 3600)
        // The same values again, except one day's severity; another day's entry mentions less.
        var page: [WatchCompletion] = []
        for (index, day) in days.enumerated() {
            var next = entry(day, severity: index == 5 ? 6 : 4)
            if index == 9 { next.sleepDuration = .unchanged }
            let id = try await store.enqueue(
                WatchSubmission(user: Self.ada, kind: "symptomLog", payload: "{}", enqueuedAt: database.clock.now))
            page.append(WatchCompletion(id: id, entry: next))
        }
        let completions = page
        #expect(try await store.batch { store in try store.stageCompletions(completions) }.count == 32)

        let connection = try Connection(path: database.path)
        let changed = try connection.withStatement(
            "SELECT day FROM daily_logs WHERE updated_at > ?1 ORDER BY day"
        ) { (statement) throws(StorageError) -> [String] in
            try statement.bind(1, written)
            var days: [String] = []
            while try statement.step() { days.append(statement.string(0)) }
            return days
        }
        #expect(changed == [days[5].description])
        #expect(try await store.dailyLog(user: Self.ada, day: days[5])?.symptomSeverity == 6)
        #expect(try await store.dailyLog(user: Self.ada, day: days[9])?.sleepDuration == Sourced(25_000, .user))
    }
}
