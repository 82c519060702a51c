import SQLiteSchema

/// Brings a database to the schema this version ships (`Schema/NNNN_name.sql`).
///
/// Each migration runs with its bookkeeping row in one `BEGIN IMMEDIATE` transaction, so a crash
/// leaves the database at the previous version, and two processes opening a fresh database at once
/// apply each migration exactly once (the second re-reads the version after taking the lock).
struct Migrator {
    let migrations: [Migration]

    struct Migration: Sendable {
        let version: Int
        let name: String
        let sql: String
    }

    init(
        migrations: [Migration] = sqliteMigrations.map { Migration(version: $0.version, name: $0.name, sql: $0.sql) }
    ) {
        precondition(
            migrations.map(\.version) == Array(1...migrations.count), "migrations are numbered 1, 2, 3… without gaps")
        self.migrations = migrations
    }

    var latestVersion: Int { migrations.count }

    static let bookkeepingTable = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            version INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            applied_at INTEGER NOT NULL
        ) STRICT
        """

    /// Checks, without writing, that `connection`'s database can be migrated by this version: it is
    /// empty or a pipeline database whose applied migrations are a prefix of ours.
    func checkCompatible(_ connection: Connection) throws(StorageError) {
        let tables = try connection.scalarText(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        let hasBookkeeping = try connection.scalarText(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'")
        guard hasBookkeeping == "1" else {
            if tables != "0" { throw .notAPipelineDatabase(path: connection.path) }
            return
        }
        try checkApplied(connection)
    }

    private func checkApplied(_ connection: Connection) throws(StorageError) {
        let applied = try connection.withStatement("SELECT version, name FROM schema_migrations ORDER BY version") {
            (statement) throws(StorageError) in
            var applied: [(version: Int, name: String)] = []
            while try statement.step() { applied.append((statement.int(0), statement.string(1))) }
            return applied
        }
        let found = applied.map(\.version).max() ?? 0
        for (version, name) in applied where version <= latestVersion {
            let shipped = migrations[version - 1].name
            guard name == shipped else {
                throw .migrationMismatch(version: version, applied: name, shipped: shipped)
            }
        }
        if found > latestVersion {
            throw .newerSchema(path: connection.path, found: found, supported: latestVersion)
        }
    }

    /// The highest applied migration, 0 for a new database.
    func currentVersion(_ connection: Connection) throws(StorageError) -> Int {
        try connection.scalarInt("SELECT coalesce(max(version), 0) FROM schema_migrations")
    }

    /// Applies every pending migration up to `target` (default: all), each in its own transaction.
    func migrate(_ connection: Connection, to target: Int? = nil, now: Int64) throws(StorageError) {
        let target = target ?? latestVersion
        // A database that is up to date is opened without taking the write lock, so `pipeline status`
        // answers while another process holds it (a long ingest, a launch).
        let hasBookkeeping = try connection.scalarText(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'")
        if hasBookkeeping == "1", try currentVersion(connection) >= target { return }
        try connection.writeTransaction { () throws(StorageError) in
            try connection.execute(Migrator.bookkeepingTable)
        }
        for migration in migrations where migration.version <= target {
            try connection.writeTransaction { () throws(StorageError) in
                // Another process may have applied it while this one waited for the lock.
                try checkApplied(connection)
                guard try currentVersion(connection) < migration.version else { return }
                do throws(StorageError) {
                    try connection.execute(migration.sql)
                } catch .sqlite(_, let message, _) {
                    throw .migrationFailed(version: migration.version, name: migration.name, message: message)
                }
                try connection.withStatement(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?1, ?2, ?3)"
                ) { (record) throws(StorageError) in
                    try record.bind(1, migration.version)
                    try record.bind(2, migration.name)
                    try record.bind(3, now)
                    try record.run()
                }
            }
        }
    }
}
