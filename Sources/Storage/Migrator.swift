import PostgreSQLSchema
import SQLiteSchema

/// Brings a database to the schema this version ships: `Schema/<backend>/NNNN_name.sql`, each backend's in its
/// own dialect, numbered and named the same way (`Migrations.swift` beside them lists them).
///
/// Each migration runs with its bookkeeping row in one transaction that holds the migration lock
/// (`StorageDriver.lockMigrations`: SQLite's write lock, a PostgreSQL advisory lock per schema), so a crash
/// leaves the database at the previous version, and processes opening a fresh database at once apply each
/// migration exactly once: the others wait, then see it applied. A database from a newer version, or one
/// pipeline did not create, is refused before anything is written.
struct Migrator {
    let migrations: [Migration]
    /// The database as errors name it (`Store.location`).
    let location: String

    struct Migration: Sendable {
        let version: Int
        let name: String
        let sql: String
    }

    init(_ backend: StorageBackend, location: String = "") {
        let embedded =
            switch backend {
            case .sqlite: sqliteMigrations.map { Migration(version: $0.version, name: $0.name, sql: $0.sql) }
            case .postgresql: postgresqlMigrations.map { Migration(version: $0.version, name: $0.name, sql: $0.sql) }
            }
        precondition(
            embedded.map(\.version) == Array(1...embedded.count), "migrations are numbered 1, 2, 3… without gaps")
        migrations = embedded
        self.location = location
    }

    var latestVersion: Int { migrations.count }

    /// What a database holds before any migration: whether it is pipeline's, and at which version.
    struct State {
        /// Whether `schema_migrations` exists: the database is pipeline's (or being made so).
        var hasBookkeeping: Bool
        /// Tables of any kind: a database that has some and no bookkeeping is someone else's.
        var tables: Int
    }

    /// Checks, without writing, that the database can be migrated by this version: it is empty, or a pipeline
    /// database whose applied migrations are a prefix of ours.
    @discardableResult
    func checkCompatible(_ driver: any StorageDriver) throws(StorageError) -> State {
        let state =
            try driver.row(.migrationState, []) { row in State(hasBookkeeping: row.bool(0), tables: row.int(1)) }
            ?? State(hasBookkeeping: false, tables: 0)
        if state.hasBookkeeping {
            try checkApplied(driver)
        } else if state.tables > 0 {
            throw .notAPipelineDatabase(path: location)
        }
        return state
    }

    private func checkApplied(_ driver: any StorageDriver) throws(StorageError) {
        let applied = try driver.rows(.appliedMigrations, []) { row in (version: row.int(0), name: row.string(1)) }
        for (version, name) in applied where version <= latestVersion {
            let shipped = migrations[version - 1].name
            guard name == shipped else { throw .migrationMismatch(version: version, applied: name, shipped: shipped) }
        }
        let found = applied.map(\.version).max() ?? 0
        if found > latestVersion { throw .newerSchema(path: location, found: found, supported: latestVersion) }
    }

    /// The highest applied migration, 0 for a new database.
    func currentVersion(_ driver: any StorageDriver) throws(StorageError) -> Int {
        try driver.integer(.schemaVersion)
    }

    /// Applies every pending migration up to `target` (default: all), each in its own transaction, to a database
    /// `checkCompatible` found in `state`. A database that is up to date is left without taking the lock, so
    /// `pipeline status` answers while another process holds SQLite's write lock (a long ingestion, a launch).
    func migrate(_ driver: any StorageDriver, from state: State, to target: Int? = nil, now: Int64)
        throws(StorageError)
    {
        let target = target ?? latestVersion
        if state.hasBookkeeping, try currentVersion(driver) >= target { return }
        try transaction(driver) { () throws(StorageError) in
            let appliedAt = driver.backend == .sqlite ? "INTEGER NOT NULL) STRICT" : "BIGINT NOT NULL)"
            try driver.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                    + "applied_at \(appliedAt)")
        }
        for migration in migrations where migration.version <= target {
            try transaction(driver) { () throws(StorageError) in
                // Another process may have applied it while this one waited for the lock.
                try checkApplied(driver)
                guard try currentVersion(driver) < migration.version else { return }
                do throws(StorageError) {
                    try driver.applyMigration(migration.sql)
                } catch {
                    switch error {
                    case .sqlite(_, let message, _), .postgresql(_, let message, _):
                        throw .migrationFailed(version: migration.version, name: migration.name, message: message)
                    default: throw error
                    }
                }
                try driver.run(.recordMigration, [migration.version, migration.name, now])
            }
        }
    }

    /// `body` in a write transaction holding the migration lock.
    private func transaction(_ driver: any StorageDriver, _ body: () throws(StorageError) -> Void) throws(StorageError)
    {
        try driver.begin(.write)
        do {
            try driver.lockMigrations()
            try body()
            try driver.commit()
        } catch {
            driver.rollback()
            throw error
        }
    }
}

extension SQL {
    /// Whether `schema_migrations` exists (PostgreSQL: in the current schema, which exists) and how many tables
    /// the database (the schema) holds.
    static let migrationState = SQL(
        sqlite: """
            SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'),
                (SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%')
            """,
        postgresql: """
            SELECT current_schema() IS NOT NULL AND to_regclass('schema_migrations') IS NOT NULL,
                (SELECT count(*) FROM pg_tables WHERE schemaname = current_schema())
            """)

    static let appliedMigrations = SQL("SELECT version, name FROM schema_migrations ORDER BY version")
    static let schemaVersion = SQL("SELECT coalesce(max(version), 0) FROM schema_migrations")
    static let recordMigration = SQL("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)")
}
