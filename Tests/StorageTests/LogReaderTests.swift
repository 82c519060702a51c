import Domain
import Foundation
import TestSupport
import Testing

@testable import Storage

/// `LogReader`: a connection of its own for the logs a retrain's workers read side by side.
@Suite("Log readers")
struct LogReaderTests {
    static let user = UserID.literal("reader")

    static func entry(_ day: String, severity: Int) -> UserEntry {
        var entry = UserEntry(user: user, day: Day.literal(day))
        entry.symptomSeverity = .set(severity)
        return entry
    }

    @Test(
        "a reader returns what the store returns, and sees each write once the store has committed it",
        arguments: TestBackend.all)
    func readsWhatTheStoreCommitted(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        try await store.write(Self.entry("2026-03-01", severity: 3))
        try await store.write(Self.entry("2026-03-02", severity: 5))
        let reader = try store.logReader()

        let first = try await reader.dailyLogs(user: Self.user)
        #expect(first == (try await store.dailyLogs(user: Self.user)))
        #expect(first.map(\.symptomSeverity) == [3, 5])

        try await store.write(Self.entry("2026-03-02", severity: 6))
        try await store.write(Self.entry("2026-03-03", severity: 7))
        let later = try await reader.dailyLogs(user: Self.user, from: Day.literal("2026-03-02"))
        #expect(later.map(\.day) == [Day.literal("2026-03-02"), Day.literal("2026-03-03")])
        #expect(later.map(\.symptomSeverity) == [6, 7])

        // Every user's id, in the store's order (by id), without reading their zones.
        for name in ["zed", "ada", "reader-2"] {
            var entry = UserEntry(user: UserID.literal(name), day: Day.literal("2026-03-01"))
            entry.mood = .set(4)
            try await store.write(entry)
        }
        let ids = try await reader.userIDs()
        #expect(ids == (try await store.users()).map(\.id))
        #expect(ids.map(\.rawValue) == ["ada", "reader", "reader-2", "zed"])
    }

    @Test(
        "a reader answers while another connection holds the write lock, and sees none of its uncommitted writes",
        .timeLimit(.minutes(1)))
    func readsBesideAWriter() async throws {
        let database = TestDatabase(.sqlite)
        let store = try Store(path: database.path, clock: database.clock)
        try await store.write(Self.entry("2026-03-01", severity: 3))
        let reader = try store.logReader()

        // Another process's writer, in the middle of its transaction.
        let writer = try Connection(path: database.path)
        try writer.execute(
            "BEGIN IMMEDIATE; UPDATE daily_logs SET symptom_severity = 9 WHERE user_id = 'reader'")
        let seen = try await reader.dailyLogs(user: Self.user)
        try writer.execute("ROLLBACK")
        #expect(seen.map(\.symptomSeverity) == [3])
    }

    @Test("on PostgreSQL a reader sees none of another session's uncommitted writes, and cannot write", .postgreSQL)
    func postgresReaderIsReadOnly() async throws {
        let database = TestDatabase(.postgresql)
        let store = try Store(path: database.path, clock: database.clock)
        try await store.write(Self.entry("2026-03-01", severity: 3))
        let reader = try store.logReader()

        let writer = try PostgreSQLConnection(url: database.path)
        try writer.begin()
        try writer.execute("UPDATE daily_logs SET symptom_severity = 9 WHERE user_id = 'reader'")
        let seen = try await reader.dailyLogs(user: Self.user)
        writer.rollback()
        #expect(seen.map(\.symptomSeverity) == [3])

        // The reader's session refuses writes (SQLSTATE 25006, read-only transaction).
        let session = try PostgreSQLDriver(url: database.path, readOnly: true)
        #expect(throws: StorageError.self) {
            try session.connection.execute("UPDATE daily_logs SET symptom_severity = 9 WHERE user_id = 'reader'")
        }
        #expect(try await store.dailyLogs(user: Self.user).map(\.symptomSeverity) == [3])
    }
}

/// What a batch of retrains reads in one query each: the same as each user's reads.
@Suite("Batch reads of a retrain")
struct RetrainBatchReadTests {
    @Test(
        "many users' days and sources, zones and served artifacts read at once are what each user's reads return",
        arguments: TestBackend.all)
    func batchReadsMatchEachUsersReads(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        let names = ["cleo", "ada", "bo"]
        for (index, name) in names.enumerated() {
            let user = UserID.literal(name)
            try await store.save(User(id: user, timeZone: TimeZone(identifier: index == 0 ? "Asia/Tokyo" : "UTC")!))
            for offset in 0..<(4 + index) {
                let day = Day.literal("2026-03-01").adding(days: offset)
                var entry = UserEntry(user: user, day: day)
                entry.symptomSeverity = .set((offset + index) % 11)
                if offset.isMultiple(of: 2) { entry.sleepDuration = .set(Double(25_000 + offset)) }
                try await store.write(entry)
                var metrics = HealthMetrics(user: user, day: day)
                metrics.hrv = Double(40 + offset)
                metrics.sleepDuration = 20_000
                try await store.write(metrics)
            }
        }
        for name in ["ada", "cleo"] {
            try await store.save(
                StoredModel(
                    scope: name, specVersion: 3, source: "personal", asOfDay: .literal("2026-03-08"),
                    trainedAt: Date(iso: "2026-03-08T03:00:00Z"), promoted: true, reason: "first",
                    designFingerprint: nil, json: "{\"of\":\"\(name)\"}"))
        }
        let reader = try store.logReader()
        // "nobody" is unknown: left out of the users read, and read as no days and no model.
        let asked = ["bo", "nobody", "cleo", "ada"].map(UserID.literal)
        let last = Day.literal("2026-03-05")

        let days = try await reader.sourcedDayValues(users: asked, through: last)
        #expect(days.count == asked.count)
        for (user, read) in zip(asked, days) {
            #expect(read == (try await reader.sourcedDayValues(user: user, through: last)), "\(user)")
        }
        #expect(days.map(\.count) == [5, 0, 4, 5])
        // Typed sleep wins over the watch's; hrv only came from the watch.
        let first = try #require(days[0].first)
        #expect(first.source(of: .sleepDuration) == .user && first.source(of: .hrv) == .health)

        let users = try await reader.users(asked)
        #expect(users.map(\.id.rawValue) == ["ada", "bo", "cleo"])
        for user in users { #expect(user == (try await store.user(user.id))) }

        let served = try await reader.servingModels(scopes: asked.map(\.rawValue))
        #expect(served.keys.sorted() == ["ada", "cleo"])
        for scope in served.keys { #expect(served[scope] == (try await store.servingModel(scope: scope))) }
        #expect(try await store.servingModels(scopes: []) == [:])
    }
}
