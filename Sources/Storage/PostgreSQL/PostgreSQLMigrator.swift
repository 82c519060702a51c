import Foundation
import PostgreSQLSchema

/// Brings a PostgreSQL database to the schema this version ships (`Schema/PostgreSQL/NNNN_name.sql`),
/// with the same bookkeeping and rules as SQLite's `Migrator`.
///
/// Each migration runs with its bookkeeping row in one transaction that first takes a transaction
/// advisory lock for the database's schema, so processes on many hosts opening a fresh database at
/// once apply each migration exactly once: the others wait, then see it applied. A database from
/// a newer version is refused before anything is written.
/// https://www.postgresql.org/docs/15/explicit-locking.html#ADVISORY-LOCKS
struct PostgreSQLMigrator {
    let migrations: [Migrator.Migration]

    init() {
        migrations = postgresqlMigrations.map { Migrator.Migration(version: $0.version, name: $0.name, sql: $0.sql) }
        precondition(
            migrations.map(\.version) == Array(1...migrations.count), "migrations are numbered 1, 2, 3… without gaps")
    }

    var latestVersion: Int { migrations.count }

    /// Serializes migrations per schema: two tests (or two tenants) in different schemas of one
    /// database do not wait for each other.
    static let lock: StaticString =
        "SELECT pg_advisory_xact_lock(hashtext('pipeline.migrate'), hashtext(coalesce(current_schema(), '')))"

    static let bookkeepingTable = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            version INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            applied_at BIGINT NOT NULL
        )
        """

    /// Checks, without writing, that the database can be migrated by this version: its schema is
    /// empty, or holds a pipeline database whose applied migrations are a prefix of ours.
    func checkCompatible(_ connection: PostgreSQLConnection) throws(StorageError) {
        let state = try connection.query(
            """
            SELECT current_schema() IS NOT NULL,
                to_regclass('schema_migrations') IS NOT NULL,
                (SELECT count(*) FROM pg_tables WHERE schemaname = current_schema())
            """)
        guard state.bool(0, 0), state.bool(0, 1) else {
            if state.int(0, 2) > 0 { throw .notAPipelineDatabase(path: connection.address.displayText) }
            return
        }
        try checkApplied(connection)
    }

    private func checkApplied(_ connection: PostgreSQLConnection) throws(StorageError) {
        let rows = try connection.query("SELECT version, name FROM schema_migrations ORDER BY version")
        var found = 0
        for row in 0..<rows.count {
            let version = rows.int(row, 0)
            found = max(found, version)
            guard version <= latestVersion else { continue }
            let shipped = migrations[version - 1].name
            guard rows.string(row, 1) == shipped else {
                throw .migrationMismatch(version: version, applied: rows.string(row, 1), shipped: shipped)
            }
        }
        if found > latestVersion {
            throw .newerSchema(path: connection.address.displayText, found: found, supported: latestVersion)
        }
    }

    /// The highest applied migration, 0 for a new database.
    func currentVersion(_ connection: PostgreSQLConnection) throws(StorageError) -> Int {
        try connection.query("SELECT coalesce(max(version), 0) FROM schema_migrations").int(0, 0)
    }

    /// Applies every pending migration up to `target` (default: all), each in its own transaction.
    func migrate(_ connection: PostgreSQLConnection, to target: Int? = nil, now: Int64) throws(StorageError) {
        let target = target ?? latestVersion
        try connection.transaction { () throws(StorageError) in
            try connection.query(PostgreSQLMigrator.lock)
            try createSchemaIfMissing(connection)
            try connection.execute(PostgreSQLMigrator.bookkeepingTable)
        }
        for migration in migrations where migration.version <= target {
            try connection.transaction { () throws(StorageError) in
                try connection.query(PostgreSQLMigrator.lock)
                // Another process may have applied it while this one waited for the lock.
                try checkApplied(connection)
                guard try currentVersion(connection) < migration.version else { return }
                // An index over a large table may take longer than the session's statement timeout.
                try connection.execute("SET LOCAL statement_timeout = 0")
                do throws(StorageError) {
                    try connection.execute(migration.sql, answerLimit: PostgreSQLConnection.migrationAnswerLimit)
                } catch .postgresql(_, let message, _) {
                    throw .migrationFailed(version: migration.version, name: migration.name, message: message)
                }
                try connection.query(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                    [.pg(migration.version), migration.name, .pg(now)])
            }
        }
    }

    /// A URL whose `search_path` names a schema that does not exist yet (`options=-csearch_path=…`,
    /// to keep pipeline's tables apart) gets it created, so the first launch needs no manual step.
    private func createSchemaIfMissing(_ connection: PostgreSQLConnection) throws(StorageError) {
        let current = try connection.query("SELECT current_schema() IS NOT NULL, current_setting('search_path')")
        guard !current.bool(0, 0) else { return }
        let first =
            current.string(0, 1).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty && $0 != "\"$user\"" } ?? ""
        let name = PostgreSQLMigrator.schemaName(first)
        guard !name.isEmpty else {
            throw .cannotOpen(
                path: connection.address.displayText, reason: "the search_path names no schema to create tables in")
        }
        // A name cannot be a bound parameter; quote it as an identifier (doubling any quote).
        try connection.execute("CREATE SCHEMA IF NOT EXISTS \"\(name.replacingOccurrences(of: "\"", with: "\"\""))\"")
    }

    /// The schema an element of `search_path` names, as the server reads it: a quoted name as written
    /// (a doubled quote inside stands for one), any other folded to lower case, as PostgreSQL folds an
    /// unquoted identifier (ASCII letters only, in a UTF-8 database). `search_path=Pipeline` names the
    /// schema `pipeline`; creating `Pipeline` would leave the path naming a schema that still does not
    /// exist. https://www.postgresql.org/docs/15/sql-syntax-lexical.html#SQL-SYNTAX-IDENTIFIERS
    static func schemaName(_ element: String) -> String {
        if element.hasPrefix("\""), element.hasSuffix("\""), element.count >= 2 {
            return String(element.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
        }
        return String(
            decoding: element.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 },
            as: UTF8.self)
    }
}
