public import Domain
import Foundation

/// The database: one SQLite file, owned by this actor.
///
/// Every read and write goes through the actor, so handlers, ingestion and the scheduler never
/// share a connection across threads (DESIGN §8, bug 3). Other processes may use the same file at
/// the same time: writes take SQLite's write lock up front (`BEGIN IMMEDIATE`) and wait for each
/// other up to the busy timeout, and the merge rules live inside the upsert statements, so the
/// result does not depend on who commits first.
public actor Store {
    /// The path the store was opened at.
    public nonisolated let path: String
    let connection: Connection
    let clock: any Clock
    /// Users known to exist, so a batch does not re-insert its user for every row. A user is
    /// never deleted by pipeline, so a cached id stays true; ids added by a transaction that rolls
    /// back are forgotten.
    var knownUsers: Set<UserID> = []
    /// The timestamp of the open `batch`: every row it writes is stamped with the same instant.
    var batchMilliseconds: Int64?

    /// Opens the database at `path`, creating it (mode 0600) if absent, and migrates it to the
    /// latest schema. A database from a newer version, or one pipeline did not create, is refused
    /// before anything in it changes.
    public init(path: String, clock: any Clock = SystemClock()) throws(StorageError) {
        try self.init(path: path, clock: clock, schemaVersion: nil)
    }

    /// Opens and migrates up to `schemaVersion` (all when `nil`): tests use it to build databases
    /// as earlier versions left them.
    init(path: String, clock: any Clock, schemaVersion: Int?) throws(StorageError) {
        self.path = path
        self.clock = clock
        connection = try Connection(path: path)
        let migrator = Migrator()
        try migrator.checkCompatible(connection)
        try connection.enableWriteAheadLog()
        try migrator.migrate(connection, to: schemaVersion, now: Store.milliseconds(clock.now))
    }

    /// The schema version this build migrates to.
    public static var latestSchemaVersion: Int { Migrator().latestVersion }

    /// The schema version of the open database.
    public func schemaVersion() throws(StorageError) -> Int {
        try Migrator().currentVersion(connection)
    }

    var nowMilliseconds: Int64 {
        batchMilliseconds ?? Store.milliseconds(clock.now)
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Runs `body` in one write transaction; users it inserts are forgotten again if it rolls back.
    func write<R>(_ body: () throws(StorageError) -> R) throws(StorageError) -> R {
        let before = knownUsers
        do {
            return try connection.writeTransaction(body)
        } catch {
            knownUsers = before
            throw error
        }
    }

    /// Counts of what the database holds, for `pipeline status`.
    public func summary() throws(StorageError) -> StoreSummary {
        try connection.readTransaction { () throws(StorageError) in
            var summary = StoreSummary()
            summary.users = try connection.scalarInt("SELECT count(*) FROM users")
            summary.dailyLogs = try connection.scalarInt("SELECT count(*) FROM daily_logs")
            summary.deadLetters = try connection.scalarInt("SELECT count(*) FROM watch_dead_letters")
            try connection.withStatement("SELECT kind, count(*) FROM watch_items GROUP BY kind ORDER BY kind") {
                (kinds) throws(StorageError) in
                while try kinds.step() {
                    summary.watchItemsByKind[kinds.string(0)] = kinds.int(1)
                }
            }
            return summary
        }
    }
}

/// What a database holds, in counts.
public struct StoreSummary: Sendable, Hashable {
    public var users = 0
    public var dailyLogs = 0
    /// Queued watch items by kind, known or not.
    public var watchItemsByKind: [String: Int] = [:]
    public var deadLetters = 0

    public init() {}
}

// Test hooks: reachable only through `@testable import`.
extension Store {
    func executeForTesting(_ sql: String) throws(StorageError) {
        try connection.execute(sql)
    }

    func migrationCountForTesting() throws(StorageError) -> Int {
        try connection.scalarInt("SELECT count(*) FROM schema_migrations")
    }
}

extension Store {
    /// SQLite's own check of the file's structure: `"ok"` when sound.
    /// https://www.sqlite.org/pragma.html#pragma_integrity_check
    public func integrityCheck() throws(StorageError) -> String {
        try connection.scalarText("PRAGMA integrity_check") ?? ""
    }
}
