import Domain
import Foundation
import TestSupport
import Testing

@testable import Storage

/// Every day belongs to a user who exists. On SQLite a foreign key says so; on PostgreSQL, since migration 11,
/// triggers that check each statement's rows at once (the constraint's per-row check was a third of a bulk load's
/// cost on the server). These tests hold both to what the foreign key did: a day without its user is refused by
/// every statement that writes days, a user cannot be deleted while a transaction writing their days is open,
/// deleting a user deletes their days, and a user's id cannot change under their days. (Checked against the
/// triggers dropped: every test here fails on PostgreSQL.)
@Suite("A day's user")
struct DayUserKeyTests {
    static let ada = UserID.literal("ada")
    static let first = Day.literal("2026-01-01")

    static func days(_ count: Int, of user: UserID) -> [DayWrite] {
        (0..<count).map { DayWrite(HealthMetrics(user: user, day: first.adding(days: $0), stepCount: 100 + $0)) }
    }

    /// Runs `write` in the open batch and returns the error it threw, undone alone.
    static func refusal(in store: isolated Store, _ write: () throws(StorageError) -> Void) -> StorageError? {
        do {
            try store.driver.refusable { () throws(StorageError) in try write() }
            return nil
        } catch {
            return error
        }
    }

    /// Each statement that writes days, given a user that does not exist: the COPY and merge of a long run, the
    /// arrays of a short one, a day alone, and a copy's import of rows.
    @Test("a day whose user does not exist is refused by every statement that writes days", arguments: TestBackend.all)
    func dayWithoutItsUser(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        let nobody = UserID.literal("nobody")
        let days = Self.days(1_500, of: nobody)
        let refusals = try await store.batch { store in
            // As long a run as one statement takes: a COPY on PostgreSQL.
            let long = days[..<min(days.count, store.driver.daysPerStatement)]
            #expect(store.backend == .sqlite || long.count >= PostgreSQLDriver.copiedFrom)
            return [
                Self.refusal(in: store) { () throws(StorageError) in _ = try store.driver.upsertDays(long, at: 0) },
                Self.refusal(in: store) { () throws(StorageError) in
                    _ = try store.driver.upsertDays(days[..<5], at: 0)
                },
                Self.refusal(in: store) { () throws(StorageError) in try store.driver.upsertDay(days[0], at: 0) },
                Self.refusal(in: store) { () throws(StorageError) in
                    let columns = CopyTable.dailyLogs.columns.map(\.name)
                    let row = columns.map { name -> CopyValue in
                        switch name {
                        case "user_id": .text("nobody")
                        case "day": .text("2026-01-01")
                        case "updated_at": .integer(0)
                        default: .null
                        }
                    }
                    try store.driver.importRows([row], into: .dailyLogs)
                },
            ]
        }
        #expect(refusals.count == 4)
        for refusal in refusals {
            #expect(refusal?.isConstraint == true, "\(String(describing: refusal))")
            #expect(refusal?.isRecordRefusal == true)
        }
        #expect(try await store.summary().dailyLogs == 0)
    }

    /// The writer's transaction holds its users until it ends, as the foreign key's check did (`FOR KEY SHARE`): a
    /// delete from another session waits for it, and gives up here after its lock timeout.
    @Test(
        "a user cannot be deleted while a transaction that wrote their days is open; then their days go with them",
        .postgreSQL, arguments: [1, 5, 1_500])
    func userHeldWhileTheirDaysAreWritten(days: Int) async throws {
        let database = TestDatabase(.postgresql)
        let store = try Store(path: database.path, clock: database.clock)
        try await store.save(User(id: Self.ada))
        let writes = Self.days(days, of: Self.ada)
        let url = database.path
        let deleteMeanwhile = try await store.batch { store -> StorageError? in
            let refusals = try store.stage(writes)
            #expect(refusals.isEmpty)
            let other = try PostgreSQLConnection(url: url)
            try other.execute("SET lock_timeout = '200ms'")
            do throws(StorageError) {
                try other.execute("DELETE FROM users WHERE id = 'ada'")
                return nil
            } catch {
                return error
            }
        }
        guard case .postgresql(let sqlState, _, _) = deleteMeanwhile else {
            Issue.record(
                "the user was deleted while their days were being written: \(String(describing: deleteMeanwhile))")
            return
        }
        #expect(sqlState == "55P03")
        #expect(try await store.dailyLogs(user: Self.ada).count == days)
        try Store.executeForTesting(at: url, "DELETE FROM users WHERE id = 'ada'")
        #expect(try await store.dailyLogs(user: Self.ada).isEmpty)
    }

    @Test("deleting a user deletes their days and leaves other users' days", arguments: TestBackend.all)
    func deletingAUserDeletesTheirDays(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        let bo = UserID.literal("bo")
        let writes = Self.days(1_500, of: Self.ada) + Self.days(1_500, of: bo)
        let refusals = try await store.batch { store in try store.stage(writes) }
        #expect(refusals.isEmpty)
        try Store.executeForTesting(at: database.path, "DELETE FROM users WHERE id = 'ada'")
        #expect(try await store.dailyLogs(user: Self.ada).isEmpty)
        #expect(try await store.dailyLogs(user: bo).count == 1_500)
        #expect(try await store.summary().dailyLogs == 1_500)
    }

    @Test(
        "a user's id cannot change while days refer to it; a user without days can be renamed",
        arguments: TestBackend.all)
    func idUnderDaysCannotChange(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        try await store.save(User(id: UserID.literal("bo")))
        let writes = Self.days(200, of: Self.ada)
        _ = try await store.batch { store in try store.stage(writes) }
        #expect {
            try Store.executeForTesting(at: database.path, "UPDATE users SET id = 'ada2' WHERE id = 'ada'")
        } throws: { error in
            (error as? StorageError)?.isConstraint == true
        }
        try Store.executeForTesting(at: database.path, "UPDATE users SET id = 'bo2' WHERE id = 'bo'")
        #expect(try await store.user(UserID.literal("bo2")) != nil)
        #expect(try await store.dailyLogs(user: Self.ada).count == 200)
    }

    @Test("a day cannot move to a user who does not exist", arguments: TestBackend.all)
    func dayCannotMoveToNobody(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        try await store.save(User(id: UserID.literal("bo")))
        let writes = Self.days(2, of: Self.ada)
        _ = try await store.batch { store in try store.stage(writes) }
        #expect {
            try Store.executeForTesting(
                at: database.path, "UPDATE daily_logs SET user_id = 'nobody' WHERE day = '2026-01-01'")
        } throws: { error in
            (error as? StorageError)?.isConstraint == true
        }
        try Store.executeForTesting(at: database.path, "UPDATE daily_logs SET user_id = 'bo' WHERE day = '2026-01-01'")
        #expect(try await store.dailyLogs(user: UserID.literal("bo")).map(\.day) == [Self.first])
    }

    @Test("emptying the users table empties the days too", .postgreSQL)
    func truncatingUsers() async throws {
        let database = TestDatabase(.postgresql)
        let store = try Store(path: database.path, clock: database.clock)
        let writes = Self.days(300, of: Self.ada)
        _ = try await store.batch { store in try store.stage(writes) }
        try Store.executeForTesting(at: database.path, "TRUNCATE users CASCADE")
        #expect(try await store.summary().dailyLogs == 0)
    }
}
