public import Domain
import Foundation

/// The database, owned by this actor: an SQLite file (the embedded default) or a PostgreSQL
/// server shared by workers on many hosts, chosen by the address it is opened at.
///
/// Every read and write goes through the actor, so handlers, ingestion and the scheduler never
/// share a connection across threads (DESIGN §8, bug 3). Other processes may use the same database
/// at the same time: the merge rules live inside the upsert statements, so the result does not
/// depend on who commits first, and a claim hands each due request to exactly one worker. The SQL
/// lives in the backend's `StorageDriver`; this type is the contract, and forwards to it.
public actor Store {
    /// Where the store is, fit to print: a file path, or a PostgreSQL URL without its password.
    public nonisolated let location: String
    /// Which kind of database the store is.
    public nonisolated let backend: StorageBackend
    let driver: any StorageDriver
    /// The database a `LogReader` connects to (see `logReader()`).
    nonisolated let address: StorageAddress
    nonisolated let clock: any Clock
    /// The most days `stage(_: [DayWrite])` writes with one statement: a caller staging a long input does best to
    /// hand it at least this many at a time (SQLite 32, PostgreSQL 4,096).
    public nonisolated let daysPerStatement: Int
    /// Users known to exist, so a batch does not insert its user again for every row (`ensureUser`). A user is
    /// never deleted by pipeline, so a known id stays true; ids a transaction adds are forgotten if it rolls back.
    var knownUsers: Set<UserID> = []
    /// `knownUsers` as the open batch's transaction began.
    var knownUsersBeforeBatch: Set<UserID> = []
    /// Users `ensureUser` added to `knownUsers` under the open savepoint (`undoable`), forgotten if it is undone.
    var usersEnsuredUnderSavepoint: [UserID]?
    /// The instant of the open `batch`: every row it writes is stamped with it.
    var batchMilliseconds: Int64?
    /// Where the actor's calls run: a thread of its own (`ConnectionThread`), not the pool every task shares.
    private nonisolated let thread = ConnectionThread(name: "pipeline store")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { thread.asUnownedSerialExecutor() }

    /// Opens the database at `address` — a file path (SQLite, created with mode 0600 if absent) or a
    /// `postgresql://` / `postgres://` URL — and migrates it to the latest schema. A database from
    /// a newer version, or one pipeline did not create, is refused before anything in it changes.
    public init(path address: String, clock: any Clock = SystemClock()) throws(StorageError) {
        try self.init(path: address, clock: clock, schemaVersion: nil)
    }

    /// Opens and migrates up to `schemaVersion` (all when `nil`): tests use it to build databases
    /// as earlier versions left them. With `existingOnly`, a database pipeline never set up is refused with
    /// `noDatabase` (`Store.existing`), checked on the same connection: a server at its connection limit must
    /// not see two.
    init(path address: String, clock: any Clock, schemaVersion: Int?, existingOnly: Bool = false)
        throws(StorageError)
    {
        let parsed = StorageAddress(address)
        let migrator = Migrator(parsed.backend, location: parsed.displayText)
        let driver: any StorageDriver
        let state: Migrator.State
        switch parsed {
        case .sqlite(let path):
            let sqlite = try SQLiteDriver(path: path)
            state = try migrator.checkCompatible(sqlite)
            // Only now that the file is known to be pipeline's (or new): WAL mode writes to it.
            try sqlite.enableWriteAheadLog()
            driver = sqlite
        case .postgresql(let url):
            driver = try PostgreSQLDriver(url: url)
            state = try migrator.checkCompatible(driver)
        }
        if existingOnly, !state.hasBookkeeping { throw .noDatabase(path: parsed.displayText) }
        try migrator.migrate(driver, from: state, to: schemaVersion, now: Store.milliseconds(clock.now))
        self.init(address: parsed, driver: driver, clock: clock)
    }

    /// A store of the SQLite file at `path` opened for reading only (`SQLiteDriver(path:readingOnly:)`): every write
    /// fails with SQLITE_READONLY. Its schema must be this build's: migrating would need to write.
    init(readingOnly path: String, clock: any Clock) throws(StorageError) {
        let driver = try SQLiteDriver(path: path, readingOnly: true)
        let migrator = Migrator(.sqlite, location: path)
        try migrator.checkCompatible(driver)
        let version = try migrator.currentVersion(driver)
        guard version == migrator.latestVersion else {
            throw .cannotOpen(
                path: path,
                reason: "it is read-only for this process and at schema version \(version), which this pipeline must "
                    + "migrate to \(migrator.latestVersion) before reading it; run 'pipeline init' once with write access"
            )
        }
        self.init(address: .sqlite(path: path), driver: driver, clock: clock)
    }

    private init(address parsed: StorageAddress, driver: any StorageDriver, clock: any Clock) {
        location = parsed.displayText
        backend = parsed.backend
        daysPerStatement = driver.daysPerStatement
        self.clock = clock
        self.address = parsed
        self.driver = driver
        // Until here the initializer alone had the connection. From now on every statement traps
        // unless it runs on this actor's executor, so storage reached from any other isolation
        // (DESIGN §8, bug 3) fails at its first statement, every time. `unowned`: the store owns
        // the driver, which owns the check, so the check never outlives the store.
        driver.checkIsolation { [unowned self] in
            self.preconditionIsolated("storage used outside its Store actor (DESIGN §8, bug 3)")
        }
    }

    /// The schema version this build migrates to (the same on every backend).
    public static var latestSchemaVersion: Int { Migrator(.sqlite).latestVersion }

    /// The schema version of the open database.
    public func schemaVersion() throws(StorageError) -> Int {
        try Migrator(backend).currentVersion(driver)
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Now, as rows are stamped: the open batch's instant, or the clock's.
    var now: Int64 {
        batchMilliseconds ?? Store.milliseconds(clock.now)
    }

    /// Runs `body` in one write transaction: commits when it returns, rolls back when it throws (and forgets the
    /// users it inserted). Not reentrant.
    func write<R>(_ body: () throws(StorageError) -> R) throws(StorageError) -> R {
        let before = knownUsers
        try driver.begin(.write)
        do {
            let result = try body()
            try driver.commit()
            return result
        } catch {
            driver.rollback()
            knownUsers = before
            throw error
        }
    }

    /// Counts of what the database holds, for `pipeline status`. One statement, so one snapshot.
    public func summary() throws(StorageError) -> StoreSummary {
        var summary = StoreSummary()
        let kinds = try driver.rows(.summary, []) { row -> (String, Int)? in
            (summary.users, summary.dailyLogs, summary.deadLetters) = (row.int(0), row.int(1), row.int(2))
            return row.optionalString(3).map { ($0, row.int(4)) }
        }
        summary.watchItemsByKind = Dictionary(kinds, uniquingKeysWith: { $1 })
        return summary
    }

    /// The database's own check of its structure: `"ok"` when sound (SQLite's `integrity_check`;
    /// on PostgreSQL, the server checks its pages itself, and this checks that every table is there).
    public func integrityCheck() throws(StorageError) -> String {
        try driver.row(.integrityCheck, []) { $0.string(0) } ?? ""
    }

    /// Moves what the database's own log holds into its file and gives back the log's space: after a write
    /// failed for a full disk, so that a small write (a run recorded as failed, its lease released) can still
    /// succeed, and at the end of a launch, so that the file alone holds every commit. SQLite checkpoints its
    /// write-ahead log into the database and truncates it; PostgreSQL's log is the server's, so there nothing
    /// is done.
    public func reclaimLogSpace() throws(StorageError) {
        try driver.reclaimLogSpace()
    }

    /// Tells the database's planner how large the watch queue has become, after an input queued many
    /// items at once. On PostgreSQL a queue filled within minutes still has the statistics of an
    /// empty table until autovacuum analyzes it, and with those each page a drain reads scans and
    /// sorts every item after it (quadratic in the queue's length); SQLite's planner walks the key either
    /// way, and nothing is done there.
    public func refreshQueueStatistics() throws(StorageError) {
        try driver.refreshStatistics(of: .watchItems)
    }

    /// Tells the database's planner how many requests there are, after a launch started many chains. On
    /// PostgreSQL a first launch's requests, tens of thousands inserted within seconds, still have the statistics
    /// of an empty table until autovacuum analyzes them, and with those the batches' claims and records scan the
    /// whole table; SQLite's planner walks the keys either way.
    public func refreshRequestStatistics() throws(StorageError) {
        try driver.refreshStatistics(of: .taskRequests)
    }
}

extension SQL {
    /// Users, daily logs, unresolved dead letters, then each queued kind and its count: a row per kind (one with
    /// NULLs when none).
    static let summary = SQL(
        """
        SELECT (SELECT count(*) FROM users), (SELECT count(*) FROM daily_logs),
            (SELECT count(*) FROM watch_dead_letters WHERE resolved_at IS NULL), kinds.kind, kinds.count
        FROM (SELECT 1) AS one
        LEFT JOIN (SELECT kind, count(*) AS count FROM watch_items GROUP BY kind) AS kinds ON TRUE
        ORDER BY kinds.kind
        """)

    /// `ok`, or what is wrong. https://www.sqlite.org/pragma.html#pragma_integrity_check
    static let integrityCheck = SQL(
        sqlite: "PRAGMA integrity_check",
        postgresql: """
            SELECT CASE count(*) WHEN 0 THEN 'ok' ELSE count(*) || ' of pipeline''s tables are missing' END
            FROM unnest(ARRAY['users', 'daily_logs', 'user_settings', 'watch_items', 'watch_dead_letters',
                'task_requests', 'task_runs', 'outbox', 'model_artifacts', 'serving_models', 'evaluations']) AS name
            WHERE to_regclass(name) IS NULL
            """)
}

/// The kinds of database a `Store` runs on.
public enum StorageBackend: String, Sendable, Hashable, CaseIterable {
    case sqlite
    case postgresql
}

/// What a database holds, in counts.
public struct StoreSummary: Sendable, Hashable {
    public var users = 0
    public var dailyLogs = 0
    /// Queued watch items by kind, known or not.
    public var watchItemsByKind: [String: Int] = [:]
    public var deadLetters = 0
}

// Test hooks: reachable only through `@testable import`.
extension Store {
    func executeForTesting(_ sql: String) throws(StorageError) {
        try driver.execute(sql)
    }

    func migrationCountForTesting() throws(StorageError) -> Int {
        try driver.integer(.migrationCount)
    }

    /// Everything a test compares to say a database was "left unchanged", read without opening a
    /// `Store` (which would migrate): an SQLite file's bytes; on PostgreSQL, every relation in the
    /// URL's schema with its columns, and every row of every table and sequence.
    static func contentsForTesting(at address: String) throws(StorageError) -> [String] {
        switch StorageAddress(address) {
        case .sqlite(let path):
            guard let bytes = FileManager.default.contents(atPath: path) else {
                throw .cannotOpen(path: path, reason: "no such file")
            }
            return ["\(bytes.count) bytes", bytes.base64EncodedString()]
        case .postgresql(let url):
            return try PostgreSQLConnection(url: url).contentsForTesting()
        }
    }

    /// Runs `sql` on a bare connection to `address`, without checking or migrating anything: tests
    /// build databases pipeline did not create with it.
    static func executeForTesting(at address: String, _ sql: String) throws(StorageError) {
        switch StorageAddress(address) {
        case .sqlite(let path): try Connection(path: path).execute(sql)
        case .postgresql(let url): try PostgreSQLConnection(url: url).execute(sql)
        }
    }
}

extension SQL {
    static let migrationCount = SQL("SELECT count(*) FROM schema_migrations")
}

extension PostgreSQLConnection {
    /// See `Store.contentsForTesting(at:)`. Names come from the catalog and are quoted; test-only.
    fileprivate func contentsForTesting() throws(StorageError) -> [String] {
        let relations = try queryUncached(
            """
            SELECT c.relname, c.relkind,
                coalesce((SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), ', '
                    ORDER BY a.attnum) FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0
                    AND NOT a.attisdropped), '')
            FROM pg_class c WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
            ORDER BY c.relname
            """)
        var lines: [String] = []
        for row in 0..<relations.count {
            let name = relations.string(row, 0)
            let kind = relations.string(row, 1)
            lines.append("\(kind) \(name) (\(relations.string(row, 2)))")
            guard kind == "r" || kind == "S" else { continue }
            let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let rows =
                kind == "r"
                ? try queryUncached("SELECT t::text FROM \(quoted) AS t ORDER BY 1")
                : try queryUncached("SELECT last_value || ' ' || is_called FROM \(quoted)")
            for index in 0..<rows.count { lines.append("  " + rows.string(index, 0)) }
        }
        return lines
    }
}
