import Domain
import Foundation

/// The seam between the `Store` and a database, in the shape of River's `riverdriver`: a driver begins and ends
/// transactions and runs one statement at a time — a `SQL` in its dialect, with its parameters bound and its
/// rows handed to a decoder — and knows nothing of what the statements mean. Everything that spans statements
/// (settling a run and its successor, releasing a claim, requeueing, the staging loops of a batch, the policy of
/// retries and leases) is written once, above, in `Store`; every row is decoded there, once, through
/// `RowReader`. `SQLiteDriver` (one file, one host) and `PostgreSQLDriver` (one server, many hosts) implement it.
///
/// What a driver adds besides: the few statements whose parameters each dialect shapes its own way (a bulk
/// load's rows: SQLite binds runs of rows in a VALUES list, PostgreSQL one array per column), and what only one
/// database has (SQLite's write-ahead log, PostgreSQL's identities and statistics).
///
/// A driver is not thread-safe: the actor that owns it (a `Store`, a `LogReader`) calls it from its executor only.
protocol StorageDriver: AnyObject {
    var backend: StorageBackend { get }

    /// Makes every statement from now on call `check` first: the owning actor passes its own executor check, so
    /// the driver cannot be used from outside it (DESIGN §8, bug 3).
    func checkIsolation(with check: @escaping () -> Void)

    // MARK: Transactions

    /// Begins a transaction; they do not nest.
    func begin(_ kind: TransactionKind) throws(StorageError)
    /// Commits the open transaction; a transaction the database already rolled back is an error, not a silent loss.
    func commit() throws(StorageError)
    /// Rolls the open transaction back, if one is open; a failure has nothing to recover (the database then has
    /// rolled back already, or will when the session ends).
    func rollback()
    /// Runs `body` so that when the database refuses a record in it (`StorageError.isRecordRefusal`) what `body`
    /// did is undone alone and the transaction goes on: PostgreSQL undoes a statement only to a savepoint, SQLite
    /// undoes a failed statement by itself.
    func refusable<R>(_ body: () throws(StorageError) -> R) throws(StorageError) -> R

    // MARK: Statements

    /// Runs `sql` with `parameters` bound to `$1, $2, …` and calls `body` with each row, which is valid only
    /// inside it. Not generic, so that a hot read's per-row code is compiled for its own types (`rows` is the
    /// convenience over it).
    func forEachRow(
        _ sql: SQL, _ parameters: [any SQLBindable], _ body: (any RowReader) throws(StorageError) -> Void
    ) throws(StorageError)
    /// Runs `sql` and returns how many rows it changed.
    @discardableResult
    func run(_ sql: SQL, _ parameters: [any SQLBindable]) throws(StorageError) -> Int
    /// `forEachRow` for SQL built at run time from names pipeline owns (`CopyTable`'s tables and columns, with
    /// parameters `$1, $2, …` as in `SQL`), never from values: those are bound.
    func forEachRow(
        built sql: String, _ parameters: [any SQLBindable], _ body: (any RowReader) throws(StorageError) -> Void
    ) throws(StorageError)
    /// Runs SQL that binds nothing and may hold several statements (a migration, a test's setup).
    func execute(_ script: String) throws(StorageError)

    // MARK: Rows each dialect binds its own way

    /// Rows one bulk statement writes at most (`upsertEntries`, `insertWatchItems`).
    var rowsPerStatement: Int { get }
    /// User-days one bulk merge writes at most (`upsertDays`): SQLite's many-row statement, PostgreSQL's COPY and
    /// merge.
    var daysPerStatement: Int { get }
    /// The merge rules of DESIGN §2 as one upsert of `write`, stamped `now`.
    func upsertDay(_ write: DayWrite, at now: Int64) throws(StorageError)
    /// The merge rules for up to `daysPerStatement` user-days in one statement, each user-day at most once; their
    /// users exist. Returns the positions (in `writes`' indexes) of the days it did not write, for `upsertDay`;
    /// refused, it changes nothing.
    func upsertDays(_ writes: ArraySlice<DayWrite>, at now: Int64) throws(StorageError) -> [Int]
    /// `upsertDays` for entries that clear no field (a drained watch item's), in their order.
    func upsertEntries(_ entries: ArraySlice<UserEntry>, at now: Int64) throws(StorageError) -> [Int]
    /// Queues up to `rowsPerStatement` watch items in one statement, in their order, skipping each that is queued
    /// already (`WatchSubmission.occurrence`); returns the ids of those it queued. Refused, it changes nothing.
    func insertWatchItems(_ items: ArraySlice<WatchSubmission>) throws(StorageError) -> [Int64]
    /// Inserts a page of a copy's rows, ids included, into `table`.
    func importRows(_ rows: [[CopyValue]], into table: CopyTable) throws(StorageError)
    /// `column` as a copy's export selects it: booleans as 0/1 and JSON as its text, as both databases keep them.
    func exportExpression(of column: CopyTable.Column) -> String

    // MARK: What only one database has

    /// Runs a migration's SQL in the open transaction (PostgreSQL: with no statement timeout, and waiting as long).
    func applyMigration(_ script: String) throws(StorageError)
    /// Serializes migrations among processes, inside the open transaction: SQLite's write lock is taken already;
    /// PostgreSQL takes an advisory lock for the schema, creating the schema its search path names if missing.
    func lockMigrations() throws(StorageError)
    /// Gives back the space of the database's own log (SQLite's write-ahead log); PostgreSQL's is the server's.
    func reclaimLogSpace() throws(StorageError)
    /// Tells the planner how large `table` has become (PostgreSQL's ANALYZE); SQLite needs nothing.
    func refreshStatistics(of table: GrowingTable) throws(StorageError)
    /// Moves each id counter past the ids a copy wrote (PostgreSQL's identities); SQLite takes the next id from
    /// the table itself.
    func advanceIdentities() throws(StorageError)
}

/// A table that can grow from a few rows to many within minutes, faster than autovacuum analyzes it.
enum GrowingTable: String {
    /// An input's watch items, queued at once.
    case watchItems = "watch_items"
    /// A first launch's requests, every user's chains started at once.
    case taskRequests = "task_requests"
}

/// What a transaction is for; each driver begins it in its own way.
enum TransactionKind {
    /// Writes. SQLite takes the write lock up front (`BEGIN IMMEDIATE`), so two writers queue on the busy timeout
    /// instead of deadlocking on a lock upgrade (https://www.sqlite.org/lang_transaction.html); PostgreSQL runs at
    /// READ COMMITTED and relies on row locks.
    case write
    /// A `Store.batch`: writes of a large input (each database tunes its connection for them).
    case batch
    /// Reads that see one snapshot and block no writer: a copy's export.
    case snapshot
    /// A copy's import: writes, with the copied tables locked against other writers.
    case copyImport
}

extension StorageDriver {
    /// Runs `sql` with `parameters` bound to `$1, $2, …` and returns what `read` makes of each row (a row it
    /// returns `nil` for is left out). `read`'s row is valid only inside it.
    func rows<T>(
        _ sql: SQL, _ parameters: [any SQLBindable], _ read: (any RowReader) throws(StorageError) -> T?
    ) throws(StorageError) -> [T] {
        var values: [T] = []
        try forEachRow(sql, parameters) { row throws(StorageError) in
            if let value = try read(row) { values.append(value) }
        }
        return values
    }

    /// `rows` for SQL built at run time (`forEachRow(built:)`).
    func rows<T>(
        built sql: String, _ parameters: [any SQLBindable], _ read: (any RowReader) throws(StorageError) -> T?
    ) throws(StorageError) -> [T] {
        var values: [T] = []
        try forEachRow(built: sql, parameters) { row throws(StorageError) in
            if let value = try read(row) { values.append(value) }
        }
        return values
    }

    /// The first row `read` makes something of, or `nil`.
    func row<T>(
        _ sql: SQL, _ parameters: [any SQLBindable], _ read: (any RowReader) throws(StorageError) -> T?
    ) throws(StorageError) -> T? {
        try rows(sql, parameters, read).first
    }

    /// The first column of the first row as an integer; 0 when there is no row.
    func integer(_ sql: SQL, _ parameters: [any SQLBindable] = []) throws(StorageError) -> Int {
        try row(sql, parameters) { $0.int(0) } ?? 0
    }

    /// Whether the statement returns a row.
    func exists(_ sql: SQL, _ parameters: [any SQLBindable]) throws(StorageError) -> Bool {
        try row(sql, parameters) { _ in true } ?? false
    }
}

/// The columns of `daily_logs` a day's write sets, from which both drivers build their merge statements (the rules
/// of DESIGN §2 are written once per field kind, not once per field).
enum DayWriteColumns {
    /// The fields only a person writes: a field the write mentions takes its new value, even `NULL`.
    static let personal = ["symptom_severity", "mood", "energy", "notes"]
    /// The metrics, each with its `_source` column: a person's value wins over a health reading.
    static let metrics = ["hrv", "resting_heart_rate", "step_count", "sleep_duration"]
    /// Every column a write sets, in the order the bulk loads bind them.
    static let all = ["user_id", "day", "updated_at"] + personal + metrics.flatMap { [$0, $0 + "_source"] }
}
