import Domain
import Foundation

/// The scale-out backend: one PostgreSQL database shared by workers on many hosts, the database
/// the only coordinator (as River's and Oban's PostgreSQL engines).
///
/// Not thread-safe: it is owned by a `Store` actor and used only from it. One connection per
/// store. Transactions run at READ COMMITTED; what SQLite gets from its single write lock, this
/// driver gets from row locks: the merge rules are single upserts, a claim takes its rows
/// `FOR UPDATE SKIP LOCKED`, and a finish locks the request it settles.
final class PostgreSQLDriver: StorageDriver {
    let connection: PostgreSQLConnection
    let clock: any Clock
    /// Users known to exist (see `SQLiteDriver.knownUsers`).
    var knownUsers: Set<UserID> = []
    var knownUsersBeforeBatch: Set<UserID> = []
    /// The timestamp of the open `batch`: every row it writes is stamped with the same instant.
    var batchMilliseconds: Int64?
    /// Day writes queued in the open batch and not yet sent (a drain's, `queue(_:)`), as `upsertDay`'s
    /// parameters, and their user-days (`flushStagedDays`).
    var stagedDays: [[String?]] = []
    var stagedDayKeys: Set<String> = []

    /// Connects and migrates up to `schemaVersion` (all when `nil`). With `existingOnly`, a database
    /// pipeline never set up (no `schema_migrations` on the search path) is refused with `noDatabase`,
    /// checked on the same connection: a server at its connection limit must not see two.
    init(url: String, clock: any Clock, schemaVersion: Int?, existingOnly: Bool = false) throws(StorageError) {
        self.clock = clock
        connection = try PostgreSQLConnection(url: url)
        if existingOnly, !(try connection.query("SELECT to_regclass('schema_migrations') IS NOT NULL").bool(0, 0)) {
            throw .noDatabase(path: connection.address.displayText)
        }
        let migrator = PostgreSQLMigrator()
        try migrator.checkCompatible(connection)
        try migrator.migrate(connection, to: schemaVersion, now: Store.milliseconds(clock.now))
    }

    /// A connection for `LogReader`, to a database a `Store` has already migrated: it migrates
    /// nothing, refuses a database pipeline cannot read, and is read-only, so a reader can never
    /// write. https://www.postgresql.org/docs/15/runtime-config-client.html#GUC-DEFAULT-TRANSACTION-READ-ONLY
    init(readerAt url: String, clock: any Clock) throws(StorageError) {
        self.clock = clock
        connection = try PostgreSQLConnection(url: url)
        try PostgreSQLMigrator().checkCompatible(connection)
        try connection.execute("SET default_transaction_read_only = on")
    }

    func checkIsolation(with check: @escaping () -> Void) {
        connection.checkIsolation = check
    }

    var nowMilliseconds: Int64 {
        batchMilliseconds ?? Store.milliseconds(clock.now)
    }

    /// Runs `body` in one transaction; users it inserts are forgotten again if it rolls back.
    /// Whatever `body` staged is written before the commit.
    func write<R>(_ body: () throws(StorageError) -> R) throws(StorageError) -> R {
        let before = knownUsers
        do {
            return try connection.transaction { () throws(StorageError) in
                let result = try body()
                try flushStaged()
                return result
            }
        } catch {
            discardStaged()
            knownUsers = before
            throw error
        }
    }

    func schemaVersion() throws(StorageError) -> Int {
        try PostgreSQLMigrator().currentVersion(connection)
    }

    func summary() throws(StorageError) -> StoreSummary {
        // One statement, so one snapshot.
        let rows = try connection.query(
            """
            SELECT (SELECT count(*) FROM users), (SELECT count(*) FROM daily_logs),
                (SELECT count(*) FROM watch_dead_letters WHERE resolved_at IS NULL), kinds.kind, kinds.count
            FROM (SELECT 1) AS one
            LEFT JOIN (SELECT kind, count(*) AS count FROM watch_items GROUP BY kind) AS kinds ON TRUE
            ORDER BY kinds.kind
            """)
        var summary = StoreSummary()
        for row in 0..<rows.count {
            summary.users = rows.int(row, 0)
            summary.dailyLogs = rows.int(row, 1)
            summary.deadLetters = rows.int(row, 2)
            if let kind = rows.optionalString(row, 3) { summary.watchItemsByKind[kind] = rows.int(row, 4) }
        }
        return summary
    }

    func reclaimLogSpace() throws(StorageError) {}

    /// https://www.postgresql.org/docs/15/sql-analyze.html: a sample of the table, in its own
    /// transaction; it waits only for another ANALYZE or VACUUM of the same table.
    func refreshQueueStatistics() throws(StorageError) {
        try connection.execute("ANALYZE watch_items")
    }

    /// PostgreSQL checks its own pages (and, with data checksums, their contents) as it reads them;
    /// what can be checked from a client is that every table pipeline needs is there and readable.
    func integrityCheck() throws(StorageError) -> String {
        let rows = try connection.query(
            """
            SELECT count(*) FROM unnest(ARRAY['users', 'daily_logs', 'user_settings', 'watch_items',
                'watch_dead_letters', 'task_requests', 'task_runs', 'outbox', 'model_artifacts',
                'serving_models', 'evaluations']) AS name
            WHERE to_regclass(name) IS NULL
            """)
        return rows.int(0, 0) == 0 ? "ok" : "\(rows.int(0, 0)) of pipeline's tables are missing"
    }

    func executeForTesting(_ sql: String) throws(StorageError) {
        try connection.execute(sql)
    }

    func migrationCountForTesting() throws(StorageError) -> Int {
        try connection.query("SELECT count(*) FROM schema_migrations").int(0, 0)
    }

    /// Many rows' parameters as one parameter per column: column k of `rows` as an array literal, for a
    /// statement that reads them back with `unnest($1::…[], $2::…[], …)`.
    static func arrayColumns(_ rows: [[String?]]) -> [String?] {
        guard let first = rows.first else { return [] }
        return first.indices.map { column in arrayLiteral(rows.map { $0[column] }) }
    }

    /// A PostgreSQL array literal (`{"a",NULL,"b"}`) of values in their text form, `nil` as NULL, bound
    /// as one parameter so the statement stays constant (`identifier = ANY($1::text[])`, a chunk's
    /// columns). Quoted elements read as any element type, so `$1::integer[]` takes it as well as
    /// `text[]`. https://www.postgresql.org/docs/15/arrays.html#ARRAYS-IO
    static func arrayLiteral(_ values: [String?]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(values.count * 8)
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            guard var value else {
                bytes += "NULL".utf8
                continue
            }
            bytes.append(UInt8(ascii: "\""))
            value.withUTF8 { text in
                for byte in text {
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
                    bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
