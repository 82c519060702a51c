import Domain
import Foundation

/// The scale-out backend: one PostgreSQL database shared by workers on many hosts, the database the only
/// coordinator (as River's and Oban's PostgreSQL engines).
///
/// Not thread-safe: it is owned by a `Store` (or a `LogReader`) and used only from its actor. One connection per
/// owner. Transactions run at READ COMMITTED; what SQLite gets from its single write lock, the statements get
/// from row locks: the merge rules are single upserts, a claim takes its rows `FOR UPDATE SKIP LOCKED`, and a
/// finish locks the request it settles (`SQL+Scheduler.swift`).
final class PostgreSQLDriver: StorageDriver {
    let connection: PostgreSQLConnection
    let backend = StorageBackend.postgresql

    /// Connects; the store checks and migrates the database. A `LogReader`'s connection is `readOnly`, so a
    /// reader can never write.
    /// https://www.postgresql.org/docs/15/runtime-config-client.html#GUC-DEFAULT-TRANSACTION-READ-ONLY
    init(url: String, readOnly: Bool = false) throws(StorageError) {
        connection = try PostgreSQLConnection(url: url)
        try connection.execute(Self.sessionSettings + (readOnly ? "; SET default_transaction_read_only = on" : ""))
    }

    /// How every session plans. Each statement is planned for its own arguments at each call, never from a plan
    /// cached earlier: a night's first launch fills the requests, runs and artifacts tables as it goes, and a plan
    /// cached while a table was small kept reading it whole as it grew (pruning artifact histories, measured in
    /// docs/benchmarks.md). No statement is split over parallel workers: each reads a few users' rows, which a worker
    /// process takes longer to start than to read (https://www.postgresql.org/docs/15/runtime-config-query.html). And
    /// none is compiled to machine code: the planner compiles a statement whose estimated cost passes
    /// `jit_above_cost`, which a batch's statement does while its tables' statistics are stale, and compiling took a
    /// few milliseconds where the statement itself took a fraction of one
    /// (https://www.postgresql.org/docs/15/jit-decision.html).
    static let sessionSettings =
        "SET plan_cache_mode = force_custom_plan; SET max_parallel_workers_per_gather = 0; SET jit = off"

    func checkIsolation(with check: @escaping () -> Void) {
        connection.calls.checkIsolation = check
    }

    // MARK: Transactions

    /// A batch's transaction: its bulk upserts must find each staged day by the key's index, but a hash join reads
    /// the whole table for every chunk, and the planner picks one whenever it thinks the table small — as it is
    /// when a first ingestion begins, and as a plan cached then keeps it. Turning off the two whole-table joins
    /// for the batch leaves the nested loop over the index; no other statement of a batch joins
    /// (https://www.postgresql.org/docs/15/runtime-config-query.html). A snapshot is REPEATABLE READ: every read
    /// sees the database as it was at the first, whatever other workers commit meanwhile
    /// (https://www.postgresql.org/docs/15/transaction-iso.html#XACT-REPEATABLE-READ). A copy's import locks every
    /// copied table against other writers, readers going on, so two copies into one database cannot both find it
    /// empty (https://www.postgresql.org/docs/15/explicit-locking.html#LOCKING-TABLES).
    func begin(_ kind: TransactionKind) throws(StorageError) {
        try connection.begin()
        do throws(StorageError) {
            switch kind {
            case .write: break
            case .batch: try connection.execute("SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off")
            case .snapshot: try connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            case .copyImport:
                try connection.execute(
                    "LOCK TABLE " + CopyTable.allCases.map { "\"\($0.name)\"" }.joined(separator: ", ")
                        + " IN EXCLUSIVE MODE")
            }
        } catch {
            connection.rollback()
            throw error
        }
    }

    func commit() throws(StorageError) {
        try connection.commit()
    }

    func rollback() {
        connection.rollback()
    }

    /// Under a savepoint: PostgreSQL cannot undo one failed statement of a transaction by itself. A savepoint
    /// that wrote is a subtransaction with an id of its own until the commit; a non-strict ingestion commits every
    /// 50,000 records, a few dozen such statements, below the 64 a session caches before other sessions'
    /// snapshots slow down. https://www.postgresql.org/docs/15/sql-savepoint.html
    func refusable<R>(_ body: () throws(StorageError) -> R) throws(StorageError) -> R {
        try connection.execute("SAVEPOINT refusable")
        let result: R
        do {
            result = try body()
        } catch  where error.isRecordRefusal {
            try connection.execute("ROLLBACK TO SAVEPOINT refusable; RELEASE SAVEPOINT refusable")
            throw error
        }
        try connection.execute("RELEASE SAVEPOINT refusable")
        return result
    }

    // MARK: Statements

    func forEachRow(
        _ sql: SQL, _ parameters: [any SQLBindable], _ body: (any RowReader) throws(StorageError) -> Void
    ) throws(StorageError) {
        try Self.forEachRow(of: try connection.query(sql, parameters.map(\.sqlValue.postgresText)), body)
    }

    func run(_ sql: SQL, _ parameters: [any SQLBindable]) throws(StorageError) -> Int {
        try connection.query(sql, parameters.map(\.sqlValue.postgresText)).affected
    }

    func forEachRow(
        built sql: String, _ parameters: [any SQLBindable], _ body: (any RowReader) throws(StorageError) -> Void
    ) throws(StorageError) {
        try Self.forEachRow(of: try connection.queryUncached(sql, parameters.map(\.sqlValue.postgresText)), body)
    }

    private static func forEachRow(of result: PostgreSQLRows, _ body: (any RowReader) throws(StorageError) -> Void)
        throws(StorageError)
    {
        let row: any RowReader = result
        for index in 0..<result.count {
            result.current = index
            try body(row)
        }
    }

    func execute(_ script: String) throws(StorageError) {
        try connection.execute(script)
    }

    // MARK: What only PostgreSQL has

    /// An index over a large table may take longer than the session's statement timeout.
    func applyMigration(_ script: String) throws(StorageError) {
        try connection.execute("SET LOCAL statement_timeout = 0")
        try connection.execute(script, answerLimit: PostgreSQLConnection.migrationAnswerLimit)
    }

    /// A transaction advisory lock for the database's schema, so processes on many hosts opening a fresh database
    /// at once apply each migration exactly once: the others wait, then see it applied. Two tests (or two tenants)
    /// in different schemas of one database do not wait for each other.
    /// https://www.postgresql.org/docs/15/explicit-locking.html#ADVISORY-LOCKS
    func lockMigrations() throws(StorageError) {
        try connection.query(
            "SELECT pg_advisory_xact_lock(hashtext('pipeline.migrate'), hashtext(coalesce(current_schema(), '')))")
        try createSchemaIfMissing()
    }

    /// A URL whose `search_path` names a schema that does not exist yet (`options=-csearch_path=…`, to keep
    /// pipeline's tables apart) gets it created, so the first launch needs no manual step.
    private func createSchemaIfMissing() throws(StorageError) {
        let current = try connection.query("SELECT current_schema() IS NOT NULL, current_setting('search_path')")
        guard !current.bool(0, 0) else { return }
        let first =
            current.string(0, 1).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty && $0 != "\"$user\"" } ?? ""
        let name = PostgreSQLDriver.schemaName(first)
        guard !name.isEmpty else {
            throw .cannotOpen(
                path: connection.address.displayText, reason: "the search_path names no schema to create tables in")
        }
        // A name cannot be a bound parameter; quote it as an identifier (doubling any quote).
        try connection.execute("CREATE SCHEMA IF NOT EXISTS \"\(name.replacingOccurrences(of: "\"", with: "\"\""))\"")
    }

    /// The schema an element of `search_path` names, as the server reads it: a quoted name as written (a doubled
    /// quote inside stands for one), any other folded to lower case, as PostgreSQL folds an unquoted identifier
    /// (ASCII letters only, in a UTF-8 database). `search_path=Pipeline` names the schema `pipeline`; creating
    /// `Pipeline` would leave the path naming a schema that still does not exist.
    /// https://www.postgresql.org/docs/15/sql-syntax-lexical.html#SQL-SYNTAX-IDENTIFIERS
    static func schemaName(_ element: String) -> String {
        if element.hasPrefix("\""), element.hasSuffix("\""), element.count >= 2 {
            return String(element.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
        }
        return String(
            decoding: element.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 },
            as: UTF8.self)
    }

    func reclaimLogSpace() throws(StorageError) {}

    /// https://www.postgresql.org/docs/15/sql-analyze.html: a sample of the table, in its own transaction; it
    /// waits only for another ANALYZE or VACUUM of the same table.
    func refreshStatistics(of table: GrowingTable) throws(StorageError) {
        try connection.execute("ANALYZE \(table.rawValue)")
    }

    /// Moves each identity past every id its table handed out — counting the ids that outlived their rows in other
    /// tables (a dead letter keeps its watch item's id, a run its request's) — so a new row never takes one again.
    /// https://www.postgresql.org/docs/15/functions-sequence.html
    func advanceIdentities() throws(StorageError) {
        for table in CopyTable.allCases {
            guard let issued = table.issuedIDs else { continue }
            let largest = issued.map { "(SELECT max(\"\($0.column)\") FROM \"\($0.table.name)\")" }
            try connection.queryUncached(
                "SELECT setval(pg_get_serial_sequence($1, 'id'), greatest(\(largest.joined(separator: ", ")), 0) + 1, "
                    + "false)",
                [table.name])
        }
    }

    /// Many rows' parameters as one parameter per column: column k of `rows` as an array literal, for a statement
    /// that reads them back with `unnest($1::…[], $2::…[], …)`.
    static func arrayColumns(_ rows: [[String?]]) -> [String?] {
        guard let first = rows.first else { return [] }
        return first.indices.map { column in arrayLiteral(rows.map { $0[column] }) }
    }

    /// A PostgreSQL array literal (`{"a",NULL,"b"}`) of values in their text form, `nil` as NULL, bound as one
    /// parameter so the statement stays constant (`identifier = ANY($1::text[])`, a chunk's columns). Quoted
    /// elements read as any element type, so `$1::integer[]` takes it as well as `text[]`.
    /// https://www.postgresql.org/docs/15/arrays.html#ARRAYS-IO
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
