import Domain
import Foundation
import TestSupport
import Testing

@testable import Storage

/// A day is stored as SQLite's `YYYY-MM-DD` text under a CHECK and, since migration 16, as a PostgreSQL `date`:
/// the table refuses what is not a day, and pipeline reads every day back as the day it wrote, whatever date style
/// the server or the operator chose for sessions.
@Suite("Stored days")
struct DayColumnTests {
    static let ada = UserID.literal("ada")

    /// SQLite's CHECK refuses text of any other shape; PostgreSQL's `date` reads other forms of a day (`20260301`)
    /// as that day, and refuses text that names no day of the years 1 to 9999.
    @Test("text that is not a day is refused by daily_logs and outbox", arguments: TestBackend.all)
    func notADayIsRefused(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        try await store.executeForTesting("INSERT INTO users (id, time_zone, created_at) VALUES ('ada', 'UTC', 0)")
        let refused =
            ["next tuesday", "2026-3-1x"]
            + (backend == .sqlite
                ? ["20260301", "2026-1-01"] : ["2026-02-30", "2026-13-01", "infinity", "10000-01-01", "0000-12-31"])
        for text in refused {
            await #expect(throws: StorageError.self, "daily_logs took \(text)") {
                try await store.executeForTesting(
                    "INSERT INTO daily_logs (user_id, day, updated_at) VALUES ('ada', '\(text)', 0)")
            }
            await #expect(throws: StorageError.self, "outbox took \(text)") {
                try await store.executeForTesting(
                    "INSERT INTO outbox (user_id, kind, day, body, created_at) VALUES ('ada', 'k', '\(text)', 'x', 0)")
            }
        }
        #expect(try await store.dailyLogs(user: Self.ada).isEmpty)
        #expect(try await store.outboxMessages().isEmpty)
    }

    /// The session starts with day-month-year dates written the SQL way (`01/03/2026`); the days go in by a COPY,
    /// as arrays, one alone and in an outbox message, are merged again, and read back in the binary format (the
    /// retrain's reads) and the text one (the outbox, a copy's export).
    @Test("days are read back as written whatever date style the session starts with", .postgreSQL)
    func dateStyleOfTheSession() async throws {
        let database = TestDatabase(.postgresql)
        let url = database.path.replacing("options=", with: "options=-cdatestyle%3DSQL%2CDMY%20")
        let store = try Store(path: url, clock: database.clock)
        let style = try await store.batch { store in
            try store.driver.rows(built: "SELECT setting, reset_val FROM pg_settings WHERE name = 'DateStyle'", []) {
                [$0.string(0), $0.string(1)]
            }
        }
        #expect(style == [["ISO, YMD", "SQL, DMY"]])
        let first = Day.literal("2026-03-01")
        let writes = (0..<1_500).map {
            DayWrite(HealthMetrics(user: Self.ada, day: first.adding(days: $0), stepCount: $0))
        }
        for _ in 0..<2 {
            let refused = try await store.batch { store in
                try store.stage(Array(writes[..<1_200])) + store.stage(Array(writes[1_200...]))
            }
            #expect(refused.isEmpty)
        }
        try await store.write(HealthMetrics(user: Self.ada, day: .literal("2031-12-31"), stepCount: 7))
        _ = try await store.post(NewOutboxMessage(user: Self.ada, kind: "reminder", day: first, body: "x"))

        let days = try await store.dailyLogs(user: Self.ada)
        #expect(days.count == 1_501)
        #expect(days.prefix(1_500).map(\.day) == writes.map(\.day))
        #expect(days.prefix(1_500).map(\.stepCount?.value) == (0..<1_500).map { $0 })
        #expect(days.last?.day == .literal("2031-12-31"))
        let reader = try LogReader(address: StorageAddress(url))
        let values = try await reader.dayValues(users: [Self.ada], through: .literal("2026-03-03"))
        #expect(values[0].map(\.day) == [first, .literal("2026-03-02"), .literal("2026-03-03")])
        #expect(try await store.outboxMessages().map(\.day) == [first])
        let exported = try await store.exportRows(of: .dailyLogs, after: nil, limit: 1)
        #expect(exported.first?[1] == .text("2026-03-01"))
    }
}
