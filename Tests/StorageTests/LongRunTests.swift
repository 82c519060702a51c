import Domain
import Foundation
import TestSupport
import Testing

@testable import Storage

/// Runs of days as long as PostgreSQL streams with COPY into its staging table and merges with one statement
/// (`PostgreSQLDriver.copiedFrom` days or more; shorter ones go as arrays, which `BatchMergeTests` covers). On SQLite
/// the same runs go 32 days to a statement: both must store what single writes store, refuse a day alone, and keep
/// text as it was written.
@Suite("Long runs of days")
struct LongRunTests {
    static let user = BatchMergeTests.user
    static let first = BatchMergeTests.first
    static let run = 1_500

    @Test("the runs here are long enough for PostgreSQL's COPY, and shorter than one COPY takes")
    func runsAreCopied() {
        #expect(Self.run >= PostgreSQLDriver.copiedFrom)
        #expect(PostgreSQLDriver.copiedLimit >= PostgreSQLDriver.copiedFrom)
    }

    /// 5,000 days of two users, none twice (a user-day twice would end a chunk early), half of them over a stored
    /// row in a random state: each chunk's merge updates half its days and inserts the others.
    @Test(
        "staging long runs in one call stores what staging them one at a time stores, new days and stored ones",
        arguments: TestBackend.all)
    func longRunsEqualSingleWrites(backend: TestBackend) async throws {
        var random = SeededRandom(seed: 37)
        var before: [DayWrite] = []
        var staged: [DayWrite] = []
        for index in 0..<5_000 {
            var write = BatchMergeTests.randomWrite(day: Self.first.adding(days: index), &random)
            if index / 50 % 2 == 1 { write = write.moved(toUser: UserID.literal("bo")) }
            if random.chance(0.5) {
                before.append(BatchMergeTests.randomWrite(day: write.day, &random).moved(toUser: write.user))
            }
            staged.append(write)
        }
        var stored: [[DailyLog]] = []
        for together in [false, true] {
            let database = TestDatabase(backend)
            let store = try Store(path: database.path, clock: database.clock)
            let written = before
            let beforeRefusals = try await store.batch { store in try store.stage(written).count }
            #expect(beforeRefusals == 0)
            let writes = staged
            let refusals = try await store.batch { store in
                together ? try store.stage(writes).count : try writes.compactMap { try store.stage($0) }.count
            }
            #expect(refusals == 0)
            stored.append(try await store.dailyLogs(user: Self.user) + store.dailyLogs(user: UserID.literal("bo")))
        }
        #expect(stored[0].count > 4_900)
        #expect(stored[1].count == stored[0].count)
        let differing = zip(stored[0], stored[1]).filter { $0 != $1 }.map { "\($0.0.user) \($0.0.day)" }
        #expect(differing.isEmpty, "stored otherwise when staged together: \(differing.prefix(5))")
    }

    /// A first load: no stored day in the runs' range, so PostgreSQL copies them straight into the table as the merge
    /// rules insert them (`PostgreSQLDriver.copyNewDays`); single writes go through the merge statement.
    @Test("a first load's long runs store what single writes of the same days store", arguments: TestBackend.all)
    func firstLoadEqualsSingleWrites(backend: TestBackend) async throws {
        var random = SeededRandom(seed: 41)
        let writes = (0..<3_000).map { index in
            let write = BatchMergeTests.randomWrite(day: Self.first.adding(days: index % 1_500), &random)
            return index < 1_500 ? write : write.moved(toUser: UserID.literal("bo"))
        }
        var stored: [[DailyLog]] = []
        for together in [false, true] {
            let database = TestDatabase(backend)
            let store = try Store(path: database.path, clock: database.clock)
            let refusals = try await store.batch { store in
                together ? try store.stage(writes).count : try writes.compactMap { try store.stage($0) }.count
            }
            #expect(refusals == 0)
            stored.append(try await store.dailyLogs(user: Self.user) + store.dailyLogs(user: UserID.literal("bo")))
        }
        #expect(stored[0].count == 3_000)
        #expect(stored[1] == stored[0])
    }

    /// Another writer stores a day of the run after the load found none stored: the key refuses the copy, which is
    /// undone alone, and the run is merged instead, the person's stored value kept over a reading. (The copy is called
    /// here over the stored day directly: what a writer committing between the check and the copy makes happen.)
    @Test("a first load's copy refused by a day stored meanwhile is undone alone, and the run merged", .postgreSQL)
    func copyRefusedByAStoredDay() async throws {
        let database = TestDatabase(.postgresql)
        let store = try Store(path: database.path, clock: database.clock)
        let contested = Self.first.adding(days: 700)
        var typed = UserEntry(user: Self.user, day: contested)
        typed.symptomSeverity = .set(7)
        typed.hrv = .set(55)
        let stored = DayWrite(typed)
        #expect(try await store.batch { store in try store.stage([stored]) }.isEmpty)
        let writes = (0..<Self.run).map { index in
            var health = HealthMetrics(user: Self.user, day: Self.first.adding(days: index))
            health.hrv = 70
            return DayWrite(health)
        }
        let (copied, daysAfterCopy, refusals) = try await store.batch { store in
            let driver = try #require(store.driver as? PostgreSQLDriver)
            let copied = try driver.copyNewDays(writes[...], at: 1)
            let daysAfterCopy = try store.dailyLogs(user: Self.user).count
            return (copied, daysAfterCopy, try store.stage(writes).count)
        }
        #expect(!copied && daysAfterCopy == 1, "the refused copy left no day of its own")
        #expect(refusals == 0)
        let logs = try await store.dailyLogs(user: Self.user)
        #expect(logs.count == Self.run)
        let day = try #require(logs.first { $0.day == contested })
        #expect(day.symptomSeverity == 7 && day.hrv == Sourced(55, .user), "the stored day was merged, not replaced")
        #expect(logs.filter { $0.day != contested }.allSatisfy { $0.hrv == Sourced(70, .health) })
    }

    /// On PostgreSQL the chunk's merge is refused whole (a CHECK), and its days are staged again one by one.
    @Test(
        "a day the database refuses in a long run is refused alone, at its index, and the rest are stored",
        arguments: TestBackend.all)
    func refusalInsideALongRun(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        let refused = [5, 700, Self.run - 1]
        let writes = (0..<Self.run).map { index in
            var entry = UserEntry(user: Self.user, day: Self.first.adding(days: index))
            // Mood is 1 to 5 (the table's CHECK); the caller was to validate it.
            entry.mood = .set(refused.contains(index) ? 9 : 3)
            return DayWrite(entry)
        }
        let refusals = try await store.batch { store in try store.stage(writes).map(\.index) }
        #expect(refusals == refused)
        let logs = try await store.dailyLogs(user: Self.user)
        #expect(logs.count == Self.run - refused.count)
        #expect(logs.allSatisfy { $0.mood == 3 })
    }

    /// What PostgreSQL's COPY reads as the end of a column or a row, as NULL, as an escape or as the end of its
    /// data, in notes stored and read back as they were written.
    @Test(
        "notes with tabs, line breaks, backslashes and what reads as NULL are stored as written in a long run",
        arguments: TestBackend.all)
    func textSurvivesALongRun(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        let notes = [
            "a\tb", "two\nlines", "carriage\r\nreturn", "back\\slash", "\\N", "\\.", "\\", "ends with \\",
            "\\t is not a tab", "", "NULL", "\"quoted\", 'single'", "{a,\"b\"}", "\u{7F}\u{1}\u{1B}[0m",
            "Zürich 🫀 日本", "tab\tand\\backslash\nand line",
        ]
        let writes = (0..<Self.run).map { index in
            var entry = UserEntry(user: Self.user, day: Self.first.adding(days: index))
            entry.notes = .set(notes[index % notes.count])
            return DayWrite(entry)
        }
        let refusals = try await store.batch { store in try store.stage(writes).count }
        #expect(refusals == 0)
        let stored = try await store.dailyLogs(user: Self.user).map(\.notes)
        #expect(stored == writes.map(\.entry.notes.newValue))
    }

    /// SQLite stores a NUL character; PostgreSQL's text cannot hold one (the decoder refuses it before either): the
    /// COPY refuses its row, and the day-by-day path refuses that day alone.
    @Test("a NUL character in a long run costs only its own day on PostgreSQL", .postgreSQL)
    func nulInALongRun() async throws {
        let database = TestDatabase(.postgresql)
        let store = try Store(path: database.path, clock: database.clock)
        let writes = (0..<Self.run).map { index in
            var entry = UserEntry(user: Self.user, day: Self.first.adding(days: index))
            entry.notes = .set(index == 700 ? "a\u{0}b" : "fine")
            return DayWrite(entry)
        }
        let refusals = try await store.batch { store in try store.stage(writes) }
        #expect(refusals.map(\.index) == [700])
        if case .postgresql(let sqlState, _, _)? = refusals.first?.refusal {
            #expect(sqlState == "22021")
        } else {
            Issue.record("refused otherwise: \(refusals)")
        }
        #expect(try await store.dailyLogs(user: Self.user).count == Self.run - 1)
    }
}

extension DayWrite {
    /// The same write for another user.
    fileprivate func moved(toUser user: UserID) -> DayWrite {
        var entry = self.entry
        entry.user = user
        var health = self.health
        health.user = user
        var copy = DayWrite(entry)
        copy.merge(health)
        return copy
    }
}
