/// Everything that can go wrong in storage. Messages carry the database's code, its message and the
/// SQL text, never the bound values (those may be health data), and never a password.
public enum StorageError: Error, Sendable, CustomStringConvertible {
    /// The database file could not be opened or created.
    case cannotOpen(path: String, reason: String)
    /// SQLite returned an error for a statement. `code` is the extended result code.
    case sqlite(code: Int32, message: String, sql: String?)
    /// The PostgreSQL server could not be reached or refused the connection (`location` has no
    /// password). Worth retrying later: the server may be restarting.
    case cannotConnect(location: String, reason: String)
    /// PostgreSQL returned an error for a statement. `sqlState` is its five-character SQLSTATE.
    case postgresql(sqlState: String, message: String, sql: String?)
    /// The database was written by a newer version of pipeline; nothing was changed.
    case newerSchema(path: String, found: Int, supported: Int)
    /// The file is an SQLite database that pipeline did not create; nothing was changed.
    case notAPipelineDatabase(path: String)
    /// An applied migration's name differs from the one this version ships under that number.
    case migrationMismatch(version: Int, applied: String, shipped: String)
    /// A migration failed; it was rolled back and the database is at the previous version.
    case migrationFailed(version: Int, name: String, message: String)
    /// There is no SQLite database at the path to read from; nothing was created.
    case noDatabase(path: String)
    /// A copy goes only into an empty database, and `tables` hold rows; nothing was changed.
    case copyTargetNotEmpty(location: String, tables: [String])
    /// A stored user's time zone is no zone this machine's tzdata knows (a name tzdata dropped, or a
    /// row written by something else). Reading the user as UTC would move their days and reminders.
    case unknownTimeZone(user: String, zone: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "cannot open the database at \(path): \(reason). Check the path and its permissions"
        case .sqlite(let code, let message, let sql):
            if isBusy {
                "the database is locked by another process (SQLite \(code): \(message)); try again later"
            } else if isReadOnly {
                "the database cannot be written by this process (SQLite \(code): \(message)): the file, its folder or "
                    + "its file system is read-only. Commands that only read (status, export, model) work; give the "
                    + "commands that write access to the file and its folder"
            } else if isIOFailure {
                "the database could not be written: the disk is full or failing (SQLite \(code): \(message)). "
                    + "The failed transaction was rolled back and nothing stored before it was lost; free space or "
                    + "check the disk, then run the command again"
            } else if isConfiguration {
                "the file is not an SQLite database (SQLite \(code): \(message)); nothing was changed. Give the path of "
                    + "a pipeline database, or a new path to create one"
            } else {
                "SQLite error \(code): \(message)" + (sql.map { " (in: \($0.prefix(200)))" } ?? "")
            }
        case .cannotConnect(let location, let reason):
            "cannot connect to the PostgreSQL database at \(location): "
                + (reason.hasSuffix("?") || reason.hasSuffix(".") ? String(reason.dropLast()) : reason) + ". "
                + (Self.connectionSetting(reason).map { "This will not pass by itself: \($0)" }
                    ?? "Check that the server is up and the URL, PGHOST, PGUSER and the password file are right; "
                    + "try again later")
        case .postgresql(let sqlState, let message, let sql):
            if isIOFailure {
                "the PostgreSQL server could not write: its disk is full or failing (SQLSTATE \(sqlState): "
                    + "\(message)). The failed transaction was rolled back; free space on the server, then run the "
                    + "command again"
            } else if isBusy {
                "the PostgreSQL database is busy or unavailable (SQLSTATE \(sqlState): \(message)); try again later"
            } else if isReadOnly {
                "the PostgreSQL database refuses writes (SQLSTATE \(sqlState): \(message)): a standby, or a role or "
                    + "database with default_transaction_read_only; use the primary's address"
            } else {
                "PostgreSQL error \(sqlState): \(message)" + (sql.map { " (in: \($0.prefix(200)))" } ?? "")
            }
        case .newerSchema(let path, let found, let supported):
            "the database at \(path) has schema version \(found), but this pipeline supports up to \(supported); "
                + "upgrade pipeline to open it (the database was not changed)"
        case .notAPipelineDatabase(let path):
            "\(path) is an SQLite database that pipeline did not create (it has tables but no schema_migrations); "
                + "give a new path or a pipeline database's (the file was not changed)"
        case .migrationMismatch(let version, let applied, let shipped):
            "the database applied migration \(version) as '\(applied)', but this pipeline ships '\(shipped)' "
                + "under that number; it was written by a different build and cannot be migrated safely"
        case .migrationFailed(let version, let name, let message):
            "migration \(version) (\(name)) failed and was rolled back: \(message)"
        case .noDatabase(let path):
            "there is no database at \(path) (nothing was created there); check the path, or create the database first"
        case .copyTargetNotEmpty(let location, let tables):
            "the database at \(location) already holds data (in \(tables.joined(separator: ", "))); a copy goes only "
                + "into an empty database, and nothing was changed. Copy into a new SQLite file or an empty PostgreSQL "
                + "database, or delete this one first (SQLite: remove the file and its -wal and -shm files; "
                + "PostgreSQL: DROP DATABASE, or DROP SCHEMA ... CASCADE) and copy again. A copy commits everything "
                + "at once, so an interrupted one leaves no rows behind: these were written by something else, or by "
                + "a copy that finished"
        case .unknownTimeZone(let user, let zone):
            "user \(user) has the time zone '\(zone)' stored, which is no IANA time zone this machine's tzdata knows, "
                + "so their days and reminder times cannot be worked out (they are not read as UTC). Set the user's "
                + "zone again with `pipeline ingest` and a line such as {\"type\":\"user\",\"user\":\"\(user)\","
                + "\"timeZone\":\"Europe/Berlin\"}, or install the tzdata that has '\(zone)'"
        }
    }

    /// The database could not serve the call now, through no fault of the call: another connection
    /// held a lock past the timeout, the server is down or restarting, or a transaction lost a
    /// deadlock or serialization race. Worth retrying later (exit 75).
    public var isBusy: Bool {
        switch self {
        case .sqlite(let code, _, _):
            // SQLITE_BUSY (5) and SQLITE_LOCKED (6), including their extended codes.
            return code & 0xFF == 5 || code & 0xFF == 6
        case .cannotConnect:
            return !isConfiguration
        case .postgresql(let sqlState, _, _):
            // https://www.postgresql.org/docs/15/errcodes-appendix.html: connection exceptions (08),
            // insufficient resources (53) but a full disk, operator intervention such as a shutdown
            // (57), a lock not available in time (55P03), a statement timeout (57014), and the
            // transaction-rollback class (40: serialization failure, deadlock).
            return (["08", "53", "57", "40"].contains(String(sqlState.prefix(2))) || sqlState == "55P03")
                && !isIOFailure
        default:
            return false
        }
    }

    /// The database cannot be used as it is set up, and trying again will not change that: the path names no
    /// pipeline database (none there, an SQLite file pipeline did not create, a file that is no SQLite database,
    /// a folder that cannot be written), a newer or different build's schema, or a server that refuses this
    /// role, password or database (`connectionSetting`), or one that refuses its privileges. Exit 78
    /// (`EX_CONFIG`); the description says what to change.
    public var isConfiguration: Bool {
        switch self {
        case .cannotOpen, .noDatabase, .notAPipelineDatabase, .newerSchema, .migrationMismatch:
            return true
        case .cannotConnect(_, let reason):
            return Self.connectionSetting(reason) != nil
        case .sqlite(let code, _, _):
            // SQLITE_NOTADB (26): the file is not an SQLite database.
            return code & 0xFF == 26
        case .postgresql(let sqlState, _, _):
            // Class 28 (invalid authorization), 3D000 (no such database) and 42501 (insufficient privilege):
            // https://www.postgresql.org/docs/15/errcodes-appendix.html
            return sqlState.hasPrefix("28") || sqlState == "3D000" || sqlState == "42501"
        default:
            return false
        }
    }

    /// What to change when a server refused a connection for a reason that will not pass by itself, from libpq's
    /// message (a failed connection has no SQLSTATE libpq hands out): `nil` for a server that is down,
    /// restarting, out of connections or out of reach, which may pass. The phrases are libpq's and the
    /// server's English messages (https://www.postgresql.org/docs/15/client-authentication-problems.html);
    /// a message in another language is taken as one that may pass.
    static func connectionSetting(_ reason: String) -> String? {
        let text = reason.lowercased()
        func says(_ phrases: String...) -> Bool { phrases.contains { text.contains($0) } }
        if says("password authentication failed", "no password supplied", "password is too long") {
            return "the password is wrong or missing; put the role's password in the password file (~/.pgpass or "
                + "PGPASSFILE, mode 0600, a line host:port:database:role:password) or in PGPASSWORD"
        }
        if says("is not permitted to log in") || (says("role \"") && says("\" does not exist")) {
            return "the role does not exist or may not log in; create it as a superuser (CREATE ROLE name LOGIN "
                + "PASSWORD '…') or name another in the URL or PGUSER"
        }
        if says("database \"") && says("\" does not exist") {
            return "the database does not exist; create it as a superuser (CREATE DATABASE name OWNER role) or name "
                + "another in the URL"
        }
        if says("no pg_hba.conf entry", "peer authentication failed", "ident authentication failed")
            || says("authentication failed for user")
        {
            return "the server's pg_hba.conf does not let this role in this way; connect over TCP with a password "
                + "(host=localhost and a password file), run as the operating-system user of the same name, or add "
                + "a line for the role to pg_hba.conf and reload the server"
        }
        if says("permission denied for database") {
            return "the role may not connect to this database; GRANT CONNECT ON DATABASE name TO role, or make the "
                + "role its owner"
        }
        if says("does not support ssl", "certificate") {
            return "the server's TLS set-up and sslmode disagree; check sslmode, sslrootcert and the server's "
                + "certificate"
        }
        if says("name or service not known") {
            return "the host name is unknown; check it in the URL or PGHOST"
        }
        if says("invalid ", "cannot load libpq") {
            return "fix what the message names"
        }
        return nil
    }

    /// The disk under the database is full or failing: SQLite's SQLITE_FULL (13) and SQLITE_IOERR
    /// (10) with their extended codes; PostgreSQL's disk_full (53100) and the system-error class
    /// (58: io_error and the like). Exit 74 (`EX_IOERR`).
    public var isIOFailure: Bool {
        switch self {
        case .sqlite(let code, _, _): code & 0xFF == 13 || code & 0xFF == 10
        case .postgresql(let sqlState, _, _): sqlState == "53100" || sqlState.hasPrefix("58")
        default: false
        }
    }

    /// The database can be read but not written by this process: SQLite's SQLITE_READONLY (8) with its
    /// extended codes (a read-only file, folder or file system); PostgreSQL's read_only_sql_transaction
    /// (25006: a standby, or `default_transaction_read_only`).
    public var isReadOnly: Bool {
        switch self {
        case .sqlite(let code, _, _): code & 0xFF == 8
        case .postgresql(let sqlState, _, _): sqlState == "25006"
        default: false
        }
    }

    /// Nothing can be written now, through no fault of the input: the disk is full or failing, or the
    /// database is read-only. Exit 74 ("cannot write").
    public var cannotWrite: Bool { isIOFailure || isReadOnly }

    /// The database refused one record's values, and only them: a constraint (SQLite 19, PostgreSQL
    /// class 23), a value it cannot hold (SQLite's SQLITE_TOOBIG 18 and SQLITE_MISMATCH 20; PostgreSQL's
    /// data exceptions, class 22, such as a NUL character, and program limits, class 54, such as an index
    /// row too large), or a trigger raising an error (PostgreSQL class P0). Another record may well be
    /// stored; in a batch, the record is rejected and the batch goes on.
    public var isRecordRefusal: Bool {
        switch self {
        case .sqlite(let code, _, _): [18, 19, 20].contains(code & 0xFF)
        case .postgresql(let sqlState, _, _): ["22", "23", "54", "P0"].contains(String(sqlState.prefix(2)))
        default: false
        }
    }

    /// A unique index refused the row: SQLite's SQLITE_CONSTRAINT_UNIQUE (2067) and _PRIMARYKEY (1555),
    /// PostgreSQL's unique_violation (23505).
    var isUniqueViolation: Bool {
        switch self {
        case .sqlite(let code, _, _): code == 2067 || code == 1555
        case .postgresql(let sqlState, _, _): sqlState == "23505"
        default: false
        }
    }

    /// A CHECK, UNIQUE, NOT NULL or foreign-key constraint rejected the row.
    public var isConstraint: Bool {
        switch self {
        case .sqlite(let code, _, _): code & 0xFF == 19
        case .postgresql(let sqlState, _, _): sqlState.hasPrefix("23")
        default: false
        }
    }
}
