import Domain
import Foundation

/// The embedded backend: one SQLite file, in WAL mode, shared by the processes of one host.
///
/// Not thread-safe: it is owned by a `Store` (or a `LogReader`) and used only from its actor. Writes take
/// SQLite's write lock up front (`BEGIN IMMEDIATE`), so processes on the host serialize their writes and what
/// the store does in several statements (a claim with its runs, a finish) sees no interleaving.
final class SQLiteDriver: StorageDriver {
    let connection: Connection
    let backend = StorageBackend.sqlite
    /// Whether a batch has enlarged the connection's page cache.
    private var hasBatchCache = false
    /// Runs the log's checkpoints off the writing connection; `nil` on a reader.
    private var checkpointer: LogCheckpointer?

    /// Opens (creating with mode 0600) the file at `path`; the store checks and migrates it, after
    /// `enableWriteAheadLog()`. `readingOnly` opens it for reading only (`Connection(readingOnly:)`): for a process
    /// that cannot write it, the commands that only read.
    init(path: String, readingOnly: Bool = false) throws(StorageError) {
        connection = try readingOnly ? Connection(readingOnly: path) : Connection(path: path)
    }

    deinit {
        checkpointer?.detach(from: connection)
    }

    /// Turns on write-ahead logging (`Connection.enableWriteAheadLog`) and hands the log's checkpoints to a
    /// `LogCheckpointer`: for the store's connection, once the database is known to be pipeline's.
    func enableWriteAheadLog() throws(StorageError) {
        try connection.enableWriteAheadLog()
        checkpointer = LogCheckpointer(attachedTo: connection)
    }

    func checkIsolation(with check: @escaping () -> Void) {
        connection.calls.checkIsolation = check
    }

    // MARK: Transactions

    /// The first batch of a connection enlarges its page cache (`Connection.enlargePageCache()`): batches are how
    /// large inputs are written. A snapshot is a deferred transaction: its first read takes the snapshot every
    /// later read sees, and it blocks no writer (https://www.sqlite.org/isolation.html).
    func begin(_ kind: TransactionKind) throws(StorageError) {
        if kind == .batch, !hasBatchCache {
            try connection.enlargePageCache()
            hasBatchCache = true
        }
        try connection.begin(immediate: kind != .snapshot)
    }

    func commit() throws(StorageError) {
        try connection.commit()
    }

    func rollback() {
        // A failed COMMIT (SQLITE_BUSY) leaves the transaction open too. Nothing to recover if the rollback itself
        // fails: SQLite has then already rolled back.
        if connection.isInOpenTransaction { try? connection.rollback() }
    }

    /// SQLite undoes a statement it refuses, and only it (https://www.sqlite.org/lang_conflict.html, ABORT).
    func refusable<R>(_ body: () throws(StorageError) -> R) throws(StorageError) -> R {
        try body()
    }

    // MARK: Statements

    func forEachRow(
        _ sql: SQL, _ parameters: [any SQLBindable], _ body: (any RowReader) throws(StorageError) -> Void
    ) throws(StorageError) {
        try connection.withStatement(sql) { (statement) throws(StorageError) in
            try Self.forEachRow(of: statement, parameters, body)
        }
    }

    func run(_ sql: SQL, _ parameters: [any SQLBindable]) throws(StorageError) -> Int {
        try connection.withStatement(sql) { (statement) throws(StorageError) in
            try statement.bind(parameters)
            try statement.run()
            return connection.changes
        }
    }

    func forEachRow(
        built sql: String, _ parameters: [any SQLBindable], _ body: (any RowReader) throws(StorageError) -> Void
    ) throws(StorageError) {
        try connection.withStatement(text: sql) { (statement) throws(StorageError) in
            try Self.forEachRow(of: statement, parameters, body)
        }
    }

    private static func forEachRow(
        of statement: Statement, _ parameters: [any SQLBindable], _ body: (any RowReader) throws(StorageError) -> Void
    ) throws(StorageError) {
        try statement.bind(parameters)
        let row: any RowReader = statement
        while try statement.step() { try body(row) }
    }

    func execute(_ script: String) throws(StorageError) {
        try connection.execute(script)
    }

    // MARK: What only SQLite has

    func applyMigration(_ script: String) throws(StorageError) {
        try connection.execute(script)
    }

    /// The migration's transaction holds the write lock already.
    func lockMigrations() throws(StorageError) {}

    /// Checkpoints the write-ahead log into the database and truncates it.
    func reclaimLogSpace() throws(StorageError) {
        let truncate = { () throws(StorageError) in
            _ = try self.connection.scalarText("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        // The queue's checkpoint would make this one fail at once with SQLITE_BUSY.
        if let checkpointer { try checkpointer.exclusively(truncate) } else { try truncate() }
    }

    /// SQLite's planner walks the tables' keys either way.
    func refreshStatistics(of table: GrowingTable) throws(StorageError) {}

    /// A new row's id is one past the largest in its table (a rowid table without AUTOINCREMENT), so no counter
    /// needs moving. https://www.sqlite.org/autoinc.html
    func advanceIdentities() throws(StorageError) {}
}
