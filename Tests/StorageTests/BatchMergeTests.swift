import Domain
import Foundation
import TestSupport
import Testing

@testable import Storage

/// A batch stages many days at once, and a driver may write them together (PostgreSQL merges a
/// chunk per statement). Whatever the driver does, a batch must store exactly what the same writes
/// store one at a time, on rows in every state: absent, empty, user-entered, from health.
@Suite("Batches store what single writes store")
struct BatchMergeTests {
    static let user = UserID.literal("ada")
    static let first = Day.literal("2020-01-01")

    /// A random write for one day: an entry, health metrics, or both coalesced.
    static func randomWrite(day: Day, _ random: inout SeededRandom) -> DayWrite {
        func patch<V>(_ values: [V]) -> Patch<V> {
            switch random.next() % 4 {
            case 0: .clear
            case 1: .set(values[Int(random.next() % UInt64(values.count))])
            default: .unchanged
            }
        }
        var entry = UserEntry(user: user, day: day)
        entry.symptomSeverity = patch([0, 4, 10])
        entry.mood = patch([1, 5])
        entry.notes = patch(["slept \"badly\"", "a\\b, {c}", "NULL", ""])
        entry.hrv = patch([40, 41.25])
        entry.restingHeartRate = patch([55, 61.5])
        entry.stepCount = patch([0, 200_000])
        entry.sleepDuration = patch([0, 27_000.5])
        var health = HealthMetrics(user: user, day: day)
        if random.chance(0.6) { health.hrv = 70 + Double(random.next() % 3) / 8 }
        if random.chance(0.6) { health.restingHeartRate = 58 }
        if random.chance(0.6) { health.stepCount = Int(random.next() % 20_000) }
        if random.chance(0.6) { health.sleepDuration = 30_000 }
        switch random.next() % 3 {
        case 0: return DayWrite(entry)
        case 1: return DayWrite(health)
        default:
            var write = DayWrite(entry)
            write.merge(health)
            return write
        }
    }

    @Test(
        "a batch of 2,500 days over rows in every state stores what writing them one at a time stores",
        arguments: TestBackend.all)
    func batchEqualsSingleWrites(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        var random = SeededRandom(seed: 11)
        // Days 2k (one at a time) and 2k+1 (in one batch) get the same writes.
        let pairs = 2_500
        var before: [DayWrite] = []
        var staged: [DayWrite] = []
        for index in 0..<pairs {
            let single = Self.first.adding(days: 2 * index)
            // Most days already have a row, in a random state, before the batch.
            if random.chance(0.7) { before.append(Self.randomWrite(day: single, &random)) }
            staged.append(Self.randomWrite(day: single, &random))
            // Some days come twice in the batch.
            if random.chance(0.05) { staged.append(Self.randomWrite(day: single, &random)) }
        }
        for write in before {
            try await store.batch { store in _ = try store.stage(write) }
            let copy = write.moved(toDay: write.day.adding(days: 1))
            try await store.batch { store in _ = try store.stage(copy) }
        }
        for write in staged {
            try await store.batch { store in _ = try store.stage(write) }
        }
        let batch = staged.map { $0.moved(toDay: $0.day.adding(days: 1)) }
        let refusals = try await store.batch { store in
            try batch.compactMap { try store.stage($0) }.count
        }
        #expect(refusals == 0)
        let logs = try await store.dailyLogs(user: Self.user)
        var byDay: [Day: DailyLog] = [:]
        for log in logs { byDay[log.day] = log }
        var compared = 0
        for index in 0..<pairs {
            let single = Self.first.adding(days: 2 * index)
            var one = byDay[single]
            one?.day = single.adding(days: 1)
            let other = byDay[single.adding(days: 1)]
            #expect(one == other, "day \(single)")
            compared += 1
        }
        #expect(compared == pairs)
        #expect(logs.count >= pairs * 2 - 10, "almost every day has a row")
    }

    @Test(
        "every write leaves the row DESIGN §2's rules give (DayWrite.applied), on rows in every state",
        arguments: TestBackend.all)
    func storedRowIsTheRulesRow(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        var random = SeededRandom(seed: 23)
        for index in 0..<600 {
            let day = Self.first.adding(days: index)
            // Up to two earlier writes put the row in a random state (or leave it absent).
            for _ in 0..<(random.next() % 3) {
                let earlier = Self.randomWrite(day: day, &random)
                try await store.batch { store in _ = try store.stage(earlier) }
            }
            let before = try await store.dailyLog(user: Self.user, day: day)
            let write = Self.randomWrite(day: day, &random)
            let refusal = try await store.batch { store in try store.stage(write) }
            #expect(refusal == nil)
            let after = try await store.dailyLog(user: Self.user, day: day)
            #expect(after == write.applied(to: before), "day \(day): \(write) over \(String(describing: before))")
        }
    }
    /// Writes for `days` days of two users, in input order: the first 100 on days with no row and each
    /// day once (whole runs a driver may insert many rows at a time), then days of which about one in
    /// eight already has a row and one in twenty comes twice. `before` are the writes that give those
    /// rows first.
    static func manyDays(_ days: Int, _ random: inout SeededRandom) -> (before: [DayWrite], staged: [DayWrite]) {
        var before: [DayWrite] = []
        var staged: [DayWrite] = []
        for index in 0..<days {
            var write = randomWrite(day: first.adding(days: index), &random)
            if index / 50 % 2 == 1 { write = write.moved(toUser: UserID.literal("bo")) }
            if index >= 100, random.chance(0.125) {
                before.append(randomWrite(day: write.day, &random).moved(toUser: write.user))
            }
            staged.append(write)
            if index >= 100, random.chance(0.05) {
                staged.append(randomWrite(day: write.day, &random).moved(toUser: write.user))
            }
        }
        return (before, staged)
    }

    @Test(
        "staging many days in one call stores what staging them one at a time stores, new days and stored ones",
        arguments: TestBackend.all)
    func manyDaysAtOnce(backend: TestBackend) async throws {
        var random = SeededRandom(seed: 31)
        let (before, staged) = Self.manyDays(700, &random)
        var stored: [[DailyLog]] = []
        for together in [false, true] {
            let database = TestDatabase(backend)
            let store = try Store(path: database.path, clock: database.clock)
            let beforeRefusals = try await store.batch { store in try before.compactMap { try store.stage($0) }.count }
            #expect(beforeRefusals == 0)
            let refusals = try await store.batch { store in
                together ? try store.stage(staged).count : try staged.compactMap { try store.stage($0) }.count
            }
            #expect(refusals == 0)
            stored.append(
                try await store.dailyLogs(user: Self.user) + store.dailyLogs(user: UserID.literal("bo")))
        }
        #expect(stored[0].count > 600)
        #expect(stored[1].count == stored[0].count)
        let differing = zip(stored[0], stored[1]).filter { $0 != $1 }.map { "\($0.0.user) \($0.0.day)" }
        #expect(differing.isEmpty, "stored otherwise when staged together: \(differing.prefix(5))")
    }

    /// On PostgreSQL a refused statement aborts its transaction: before each statement of a batch ran under
    /// a savepoint, a day the database refused failed the whole batch, good days included. (Checked by
    /// running the chunk's statement without `underSavepoint`: the batch threw, its transaction aborted.)
    @Test(
        "a day the database refuses in a run of many is refused alone, at its index, and the rest are stored",
        arguments: TestBackend.all)
    func refusalInsideARun(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        var writes = (0..<100).map { index in
            var entry = UserEntry(user: Self.user, day: Self.first.adding(days: index))
            entry.mood = .set(3)
            return DayWrite(entry)
        }
        // Mood is 1 to 5 (the table's CHECK); the caller was to validate it.
        for index in [5, 70] {
            var entry = UserEntry(user: Self.user, day: Self.first.adding(days: index))
            entry.mood = .set(9)
            writes[index] = DayWrite(entry)
        }
        let staged = writes
        let refusals = try await store.batch { store in try store.stage(staged).map(\.index) }
        #expect(refusals == [5, 70])
        let logs = try await store.dailyLogs(user: Self.user)
        #expect(logs.count == 98)
        #expect(logs.allSatisfy { $0.mood == 3 })
        #expect(!logs.contains { $0.day == Self.first.adding(days: 5) || $0.day == Self.first.adding(days: 70) })
    }

    @Test(
        "user and settings records staged together leave what staging them one at a time leaves",
        arguments: TestBackend.all)
    func recordsTogetherEqualOneAtATime(backend: TestBackend) async throws {
        var random = SeededRandom(seed: 5)
        let users = (0..<12).map { UserID.literal("user-\($0)") }
        let zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo"].map { TimeZone(identifier: $0)! }
        // Each user named several times over: time zones set and changed, settings set, changed and reset.
        let records: [InputRecord] = (0..<300).map { _ in
            let user = users[Int(random.next() % UInt64(users.count))]
            if random.chance(0.4) {
                return .user(UserUpdate(id: user, timeZone: random.chance(0.3) ? nil : zones[Int(random.next() % 3)]))
            }
            var update = SettingsUpdate(user: user)
            for key in SettingKey.allCases where random.chance(0.5) {
                switch (random.next() % 3, key) {
                case (0, _): update.changes[key] = .some(nil)
                case (_, .reminderHour): update.changes[key] = .integer(Int(random.next() % 24))
                default: update.changes[key] = .bool(random.chance(0.5))
                }
            }
            return .settings(update)
        }
        let together = TestDatabase(backend)
        let oneByOne = TestDatabase(backend)
        let first = try Store(path: together.path, clock: together.clock)
        let second = try Store(path: oneByOne.path, clock: oneByOne.clock)
        #expect(try await first.batch { try $0.stage(records) }.isEmpty)
        let refused = try await second.batch { store in try records.filter { try store.stage($0) != nil } }
        #expect(refused.isEmpty)
        #expect(try await first.users() == second.users())
        #expect(try await first.users().count == users.count)
        let settings = try await first.settings(for: users)
        #expect(settings == (try await second.settings(for: users)))
        // Not all defaults: the records changed something.
        #expect(settings.values.contains { $0 != UserSettings(stored: [:]) })
    }

    @Test(
        "a watch item or settings record the database refuses in a batch is refused alone; the batch goes on",
        arguments: TestBackend.all)
    func refusedItemsAndRecords(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        let now = database.clock.now
        // Both tables take JSON only; the decoder was to check it.
        let items = ["{\"a\":1}", "not json", "{\"a\":3}"].map { payload in
            WatchSubmission(user: Self.user, kind: "future-kind", payload: payload, enqueuedAt: now)
        }
        var entry = UserEntry(user: Self.user, day: Self.first)
        entry.energy = .set(0)
        var settings = SettingsUpdate(user: Self.user)
        settings.changes[.reminderHour] = .some(.integer(21))
        let records: [InputRecord] = [.entry(entry), .settings(settings)]
        let (itemRefusals, recordRefusals) = try await store.batch { store in
            (try store.stage(items).map(\.index), try records.map { try store.stage($0) != nil })
        }
        #expect(itemRefusals == [1])
        #expect(recordRefusals == [true, false])
        #expect(try await store.allWatchItems().map(\.payload) == ["{\"a\":1}", "{\"a\":3}"])
        #expect(try await store.settings(for: Self.user).reminderHour == 21)
        #expect(try await store.dailyLog(user: Self.user, day: Self.first) == nil)
    }
}

extension DayWrite {
    /// The same write for another user or another day.
    fileprivate func moved(toUser user: UserID? = nil, toDay day: Day? = nil) -> DayWrite {
        var entry = self.entry
        entry.user = user ?? entry.user
        entry.day = day ?? entry.day
        var health = self.health
        health.user = entry.user
        health.day = entry.day
        var copy = DayWrite(entry)
        copy.merge(health)
        return copy
    }
}
