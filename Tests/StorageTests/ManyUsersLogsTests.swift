import Domain
import Foundation
import Storage
import TestSupport
import Testing

/// `LogReader.dayValues(users:through:)`, the population's read, and `sourcedDayValues(user:through:)`, a
/// retrain's: the same logs (their values, and their sources) as one read of `DailyLog`s per user.
@Suite("Logs of many users in one read")
struct ManyUsersLogsTests {
    @Test(
        "each user's logs through the day, in the order the users were named; a user without logs has none",
        arguments: TestBackend.all)
    func sameAsOneReadPerUser(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        // Ids whose order by text differs from the order they are asked for in.
        let users = ["zoe", "ada", "Bob", "ada-2", "max"].map(UserID.literal)
        var random = SeededRandom(seed: 7)
        for (index, user) in users.enumerated() where user.rawValue != "max" {
            for offset in 0..<(5 + index * 3) where random.chance(0.8) {
                var entry = UserEntry(user: user, day: Day.literal("2026-03-01").adding(days: offset))
                entry.symptomSeverity = .set(Int(random.next() % 11))
                entry.notes = .set("note \(offset)")
                if random.chance(0.5) { entry.mood = .set(1 + Int(random.next() % 5)) }
                if random.chance(0.5) { entry.energy = .set(1 + Int(random.next() % 5)) }
                if random.chance(0.3) { entry.stepCount = .set(Int(random.next() % 20_000)) }
                try await store.write(entry)
                var metrics = HealthMetrics(user: user, day: entry.day)
                metrics.hrv = 20 + Double(random.next() % 80)
                if random.chance(0.5) { metrics.restingHeartRate = 50 + Double(random.next() % 30) / 3 }
                if random.chance(0.5) { metrics.sleepDuration = 20_000 + Double(random.next() % 10_000) }
                if random.chance(0.5) { metrics.stepCount = Int(random.next() % 15_000) }
                try await store.write(metrics)
            }
        }
        let last = Day.literal("2026-03-09")
        let reader = try store.logReader()
        var together: [[DailyLog]] = []
        for user in users { together.append(try await store.dailyLogs(user: user, through: last)) }
        #expect(together.last?.isEmpty == true)
        #expect(together.dropLast().allSatisfy { !$0.isEmpty })

        // The values alone: every field of the same days, read without notes and sources.
        let values = try await reader.dayValues(users: users, through: last)
        #expect(values == together.map { $0.map(DayValues.init) })
        #expect(values.joined().contains { $0.mood != nil && $0.sleepDuration != nil && $0.stepCount != nil })
        #expect(try await reader.dayValues(users: [], through: last).isEmpty)

        // A retrain's read: the values and who wrote each metric, without the notes.
        for (user, logs) in zip(users, together) {
            let days = try await reader.sourcedDayValues(user: user, through: last)
            #expect(days == logs.map(SourcedDayValues.init), "\(user.rawValue)")
            for (day, log) in zip(days, logs) {
                #expect(Field.allCases.allSatisfy { day.source(of: $0) == log.source(of: $0) })
            }
        }
        let logs = together.joined()
        #expect(logs.contains { $0.stepCount?.source == .user } && logs.contains { $0.stepCount?.source == .health })
        #expect(try await reader.sourcedDayValues(user: .literal("nobody"), through: last).isEmpty)
    }
}
