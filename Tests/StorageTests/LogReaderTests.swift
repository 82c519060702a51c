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
        let session = try PostgreSQLDriver(readerAt: database.path)
        #expect(throws: StorageError.self) {
            try session.connection.execute("UPDATE daily_logs SET symptom_severity = 9 WHERE user_id = 'reader'")
        }
        #expect(try await store.dailyLogs(user: Self.user).map(\.symptomSeverity) == [3])
    }
}
