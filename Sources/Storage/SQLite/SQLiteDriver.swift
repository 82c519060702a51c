import Domain
import Foundation

/// The embedded backend: one SQLite file, in WAL mode, shared by the processes of one host.
///
/// Not thread-safe: it is owned by a `Store` actor and used only from it. Writes take SQLite's
/// write lock up front (`BEGIN IMMEDIATE`), so processes on the host serialize their writes and the
/// multi-statement operations (a claim with its runs, a completion) see no interleaving.
final class SQLiteDriver: StorageDriver {
    let connection: Connection
    let clock: any Clock
    /// Users known to exist, so a batch does not re-insert its user for every row. A user is
    /// never deleted by pipeline, so a cached id stays true; ids added by a transaction that rolls
    /// back are forgotten.
    var knownUsers: Set<UserID> = []
    var knownUsersBeforeBatch: Set<UserID> = []
    /// The timestamp of the open `batch`: every row it writes is stamped with the same instant.
    var batchMilliseconds: Int64?
    /// Whether a batch has enlarged the connection's page cache.
    var hasBatchCache = false
    /// Runs the log's checkpoints off the writing connection; `nil` on a reader.
    private var checkpointer: LogCheckpointer?

    /// Opens (creating with mode 0600) the file at `path` and migrates it up to `schemaVersion`
    /// (all when `nil`). A newer or foreign database is refused before anything in it changes.
    init(path: String, clock: any Clock, schemaVersion: Int?) throws(StorageError) {
        self.clock = clock
        connection = try Connection(path: path)
        let migrator = Migrator()
        try migrator.checkCompatible(connection)
        try connection.enableWriteAheadLog()
        try migrator.migrate(connection, to: schemaVersion, now: Store.milliseconds(clock.now))
        checkpointer = LogCheckpointer(attachedTo: connection)
    }

    deinit {
        checkpointer?.detach(from: connection)
    }

    /// Opens a second connection to the file at `path`, which a store has already opened and migrated, for
    /// reads only (`LogReader`): nothing is migrated here, and a schema this build does not know is refused
    /// as the store refuses it.
    init(readerAt path: String, clock: any Clock) throws(StorageError) {
        self.clock = clock
        connection = try Connection(path: path)
        try Migrator().checkCompatible(connection)
    }

    /// Opens the file at `path` for reading only (`Connection(readingOnly:)`): for a process that cannot write
    /// it, the commands that only read. Its schema must be this build's: migrating would need to write.
    init(readingOnlyAt path: String, clock: any Clock) throws(StorageError) {
        self.clock = clock
        connection = try Connection(readingOnly: path)
        let migrator = Migrator()
        try migrator.checkCompatible(connection)
        let version = try migrator.currentVersion(connection)
        guard version == migrator.latestVersion else {
            throw .cannotOpen(
                path: path,
                reason: "it is read-only for this process and at schema version \(version), which this pipeline must "
                    + "migrate to \(migrator.latestVersion) before reading it; run 'pipeline init' once with write access"
            )
        }
    }

    func checkIsolation(with check: @escaping () -> Void) {
        connection.checkIsolation = check
    }

    var nowMilliseconds: Int64 {
        batchMilliseconds ?? Store.milliseconds(clock.now)
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

    func schemaVersion() throws(StorageError) -> Int {
        try Migrator().currentVersion(connection)
    }

    func summary() throws(StorageError) -> StoreSummary {
        try connection.readTransaction { () throws(StorageError) in
            var summary = StoreSummary()
            summary.users = try connection.scalarInt("SELECT count(*) FROM users")
            summary.dailyLogs = try connection.scalarInt("SELECT count(*) FROM daily_logs")
            summary.deadLetters = try connection.scalarInt(
                "SELECT count(*) FROM watch_dead_letters WHERE resolved_at IS NULL")
            try connection.withStatement("SELECT kind, count(*) FROM watch_items GROUP BY kind ORDER BY kind") {
                (kinds) throws(StorageError) in
                while try kinds.step() {
                    summary.watchItemsByKind[kinds.string(0)] = kinds.int(1)
                }
            }
            return summary
        }
    }

    /// SQLite's own check of the file's structure: `"ok"` when sound.
    /// https://www.sqlite.org/pragma.html#pragma_integrity_check
    func integrityCheck() throws(StorageError) -> String {
        try connection.scalarText("PRAGMA integrity_check") ?? ""
    }

    func reclaimLogSpace() throws(StorageError) {
        let truncate = { () throws(StorageError) in
            _ = try self.connection.scalarText("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        // The queue's checkpoint would make this one fail at once with SQLITE_BUSY.
        if let checkpointer { try checkpointer.exclusively(truncate) } else { try truncate() }
    }

    func refreshQueueStatistics() throws(StorageError) {}

    func executeForTesting(_ sql: String) throws(StorageError) {
        try connection.execute(sql)
    }

    func migrationCountForTesting() throws(StorageError) -> Int {
        try connection.scalarInt("SELECT count(*) FROM schema_migrations")
    }
}
