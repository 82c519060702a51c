import CSQLite
import Foundation

/// One SQLite connection, configured for pipeline's use, with a cache of prepared statements.
///
/// Not thread-safe and not reentrant: it is owned by the `Store` actor and never leaves it.
final class Connection {
    let handle: OpaquePointer
    let path: String
    /// Prepared statements: by the address of their SQL literal (hashing a pointer is free, hashing the SQL text
    /// on every call is not), by the text of SQL built from `CopyTable`'s names, or by the short name of long SQL
    /// built once at run time (`withStatement(named:sql:_:)`).
    private var statements: [StatementKey: Statement] = [:]
    /// Checked at the start of every statement. SQLite, opened with SQLITE_OPEN_NOMUTEX, does not lock.
    let calls = ExclusiveCalls(misuse: "the SQLite connection was used by two statements at once")

    /// How long a writer waits for another process's lock before giving up with SQLITE_BUSY.
    static let busyTimeoutMilliseconds: Int32 = 15_000

    /// Opens (creating with mode 0600 if absent) the database at `path`. Configuration that writes
    /// to the file (WAL mode) is left to `enableWriteAheadLog()`, so a database that turns out to be
    /// from a newer version can be refused without being changed.
    convenience init(path: String) throws(StorageError) {
        _ = Connection.processConfiguration
        let file = try Connection.createPrivately(path)
        try self.init(
            path: path, opening: file, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX)
    }

    /// Opens `name` (the file, or a `file:` URI) with `flags`; `path` is the database as the user gave it.
    private init(path: String, opening name: String, flags: Int32) throws(StorageError) {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(name, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "SQLite error \(code)"
            sqlite3_close_v2(handle)
            throw .cannotOpen(path: path, reason: reason)
        }
        self.handle = handle
        self.path = path
        try configure()
    }

    /// Opens the database at `path` for reading only, for a process that cannot write the file or its
    /// folder (another user's database, a read-only file system). SQLite reads a database in write-ahead-log
    /// mode through its `-shm` file, which it must be able to create or find; when the folder has no `-wal`
    /// file and cannot be written, nothing can be writing the database (a writer would have made one there),
    /// so it is opened `immutable`: no shared memory, no locks.
    /// https://www.sqlite.org/wal.html#readonly and https://www.sqlite.org/uri.html#uriimmutable
    convenience init(readingOnly path: String) throws(StorageError) {
        _ = Connection.processConfiguration
        let folder = (path as NSString).deletingLastPathComponent
        let isQuiet =
            !FileManager.default.fileExists(atPath: path + "-wal") && access(folder.isEmpty ? "." : folder, W_OK) != 0
        let uri = "file:" + Connection.uriPath(path) + (isQuiet ? "?immutable=1" : "?mode=ro")
        try self.init(path: path, opening: uri, flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX)
    }

    /// `path` for a `file:` URI: every byte other than an unreserved character or `/` percent-encoded
    /// (`?`, `#` and `%` would otherwise end or change it). https://www.sqlite.org/uri.html
    static func uriPath(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            let isPlain =
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "/-._~".utf8.contains(byte)
            encoded += isPlain ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }
        return encoded
    }

    /// Once per process, before the first connection initializes SQLite: no memory statistics (nothing reads
    /// them, and each allocation took a global lock for them). If something else in the process initialized
    /// SQLite first, they stay on.
    private static let processConfiguration: Void = {
        _ = pipeline_sqlite_disable_memory_statistics()
    }()

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Health data: the file is created readable by its owner only. SQLite gives the -wal and -shm
    /// files the same permissions as the database (https://www.sqlite.org/tempfiles.html), so
    /// creating the database file first with 0600 covers all three. Returns the path to open: the
    /// file itself, with the symbolic links that lead to it followed.
    ///
    /// Two paths would otherwise slip past the 0600 creation. A symbolic link whose target does not
    /// exist yet "exists" for `O_EXCL`, and SQLite would create the target with its default 0644:
    /// the links are followed here, the target created 0600, and that path given to SQLite. A
    /// `file:` URI is opened by SQLite as a URI on builds with SQLITE_USE_URI (Debian's, for one),
    /// so the file created here would not be the database: such a path is refused. So is `:memory:`,
    /// SQLite's name for a database that vanishes with its connection: each `pipeline` command would
    /// start empty, and the file of that name created here would be left behind.
    static func createPrivately(_ path: String) throws(StorageError) -> String {
        if path.hasPrefix("file:") {
            throw .cannotOpen(
                path: path,
                reason: "SQLite URIs (file:…) are not accepted; give the database file's path, e.g. ./pipeline.sqlite")
        }
        if path == ":memory:" {
            throw .cannotOpen(
                path: path,
                reason: "an in-memory database would lose everything when the command ends; give the database "
                    + "file's path, e.g. ./pipeline.sqlite")
        }
        var target = path
        // As many links as the kernel follows in one path (SYMLOOP_MAX on Linux), then ELOOP.
        for _ in 0..<40 {
            let descriptor = open(target, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor >= 0 {
                close(descriptor)
                return target
            }
            let failure = errno
            guard failure == EEXIST else {
                throw .cannotOpen(path: path, reason: String(cString: strerror(failure)))
            }
            guard let next = linkTarget(target) else { return target }
            target = next
        }
        throw .cannotOpen(path: path, reason: String(cString: strerror(ELOOP)))
    }

    /// Where the symbolic link at `path` points, relative targets taken from the link's directory;
    /// `nil` when `path` is not a symbolic link.
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let destination = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard !destination.hasPrefix("/"), let slash = path.lastIndex(of: "/") else { return destination }
        return String(path[...slash]) + destination
    }

    /// Connection settings, each for a reason:
    /// - extended result codes, so errors say e.g. SQLITE_CONSTRAINT_CHECK rather than SQLITE_CONSTRAINT;
    /// - a busy timeout, so concurrent writers (cron launches overlapping, ingestion during a retrain)
    ///   wait for each other's lock instead of failing at once (https://www.sqlite.org/c3ref/busy_timeout.html);
    /// - foreign keys on, which SQLite leaves off by default (https://www.sqlite.org/foreignkeys.html#fk_enable).
    private func configure() throws(StorageError) {
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Connection.busyTimeoutMilliseconds)
        try execute("PRAGMA foreign_keys = ON")
    }

    /// WAL lets readers (status, predict) run while a writer commits, and `synchronous = NORMAL` is
    /// durable across application crashes in WAL mode; only a power loss may roll back the last
    /// commits, never corrupt the file (https://www.sqlite.org/pragma.html#pragma_synchronous).
    ///
    /// Connections opening a new file at once (two cron launches, workers starting together) each switch it: the
    /// switch needs the file to itself, and SQLite answers one that cannot have it at once with SQLITE_BUSY, without
    /// waiting out the busy timeout. So the switch is tried again, a few milliseconds apart, for as long as that
    /// timeout; once one connection has switched the file, the others find it in WAL mode already.
    func enableWriteAheadLog() throws(StorageError) {
        var mode: String?
        var waited: Int32 = 0
        var pause: Int32 = 1
        while true {
            do {
                mode = try scalarText("PRAGMA journal_mode = WAL")
                break
            } catch let error where error.isBusy && waited < Connection.busyTimeoutMilliseconds {
                usleep(useconds_t(pause) * 1_000)
                waited += pause
                pause = min(pause * 2, 50)
            }
        }
        guard mode?.lowercased() == "wal" else {
            throw .cannotOpen(path: path, reason: "the file system does not support write-ahead logging")
        }
        try execute("PRAGMA synchronous = NORMAL")
    }

    /// Gives the connection a page cache of `Connection.batchCacheKibibytes` instead of SQLite's
    /// default 2 MiB, for a connection that writes a large input: its upserts and the drain after
    /// them revisit the pages of every user's days, and with the default cache each revisit reads
    /// the page again and each commit rewrites pages evicted since. The cache is a bound, not a
    /// buffer of the input: memory stays flat however long the input is
    /// (https://www.sqlite.org/pragma.html#pragma_cache_size).
    func enlargePageCache() throws(StorageError) {
        try execute("PRAGMA cache_size = -\(Connection.batchCacheKibibytes)")
    }

    static let batchCacheKibibytes = 65_536

    /// Runs SQL that binds nothing and returns no rows needed (pragmas, migrations, BEGIN/COMMIT).
    func execute(_ sql: String) throws(StorageError) {
        calls.enter()
        defer { calls.leave() }
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw .sqlite(code: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// Transaction control through cached statements: `sqlite3_exec` would compile the SQL again at
    /// every transaction, and a cohort retrain runs several thousand.
    func begin(immediate: Bool) throws(StorageError) {
        try run(immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
    }

    func commit() throws(StorageError) {
        try run("COMMIT")
    }

    func rollback() throws(StorageError) {
        try run("ROLLBACK")
    }

    private func run(_ sql: StaticString) throws(StorageError) {
        try withStatement(sql) { (statement) throws(StorageError) in try statement.run() }
    }

    /// The first column of the first row, as text.
    func scalarText(_ sql: StaticString) throws(StorageError) -> String? {
        try withStatement(sql) { (statement) throws(StorageError) in
            try statement.step() ? statement.optionalString(0) : nil
        }
    }

    /// The first column of the first row, as an integer (0 when there is no row).
    func scalarInt(_ sql: StaticString) throws(StorageError) -> Int {
        try withStatement(sql) { (statement) throws(StorageError) in
            try statement.step() ? statement.int(0) : 0
        }
    }

    /// Calls `body` with the prepared statement for `sql`, then resets it. Statements are cached by
    /// their literal, so SQL is always a constant (never built from values: those are bound). The
    /// statement is valid only inside `body`.
    ///
    /// The reset matters: a statement left with unread rows keeps its read transaction open, and in
    /// WAL mode that pins the connection to an old snapshot, so later reads would miss other
    /// processes' commits (https://www.sqlite.org/wal.html#concurrency).
    func withStatement<R>(_ sql: StaticString, _ body: (Statement) throws(StorageError) -> R) throws(StorageError) -> R
    {
        precondition(sql.hasPointerRepresentation, "SQL is a string literal")
        return try withStatement(.literal(UnsafeRawPointer(sql.utf8Start)), sql: { sql.description }, body)
    }

    /// `withStatement` for a statement of the seam: cached by its SQLite literal, prepared from its SQLite text.
    func withStatement<R>(_ sql: SQL, _ body: (Statement) throws(StorageError) -> R) throws(StorageError) -> R {
        try withStatement(.literal(UnsafeRawPointer(sql.sqlite.literal.utf8Start)), sql: { sql.sqlite.text }, body)
    }

    /// `withStatement` for SQL built at run time from names pipeline owns (the tables and columns
    /// of `CopyTable`), never from values: those are bound. Cached by its text, so there must be
    /// few such statements.
    func withStatement<R>(text sql: String, _ body: (Statement) throws(StorageError) -> R) throws(StorageError) -> R {
        try withStatement(.text(sql), sql: { sql }, body)
    }

    /// `withStatement` for long SQL built once at run time from names pipeline owns (`SQLiteDriver.insertDays`):
    /// cached under `name`, a short key unique among such statements, so a run hashes the name, not the text.
    /// `sql` is called only to prepare the statement the first time.
    func withStatement<R>(
        named name: String, sql: () -> String, _ body: (Statement) throws(StorageError) -> R
    ) throws(StorageError) -> R {
        try withStatement(.name(name), sql: sql, body)
    }

    private enum StatementKey: Hashable {
        case literal(UnsafeRawPointer)
        case text(String)
        case name(String)
    }

    private func withStatement<R>(
        _ key: StatementKey, sql: () -> String, _ body: (Statement) throws(StorageError) -> R
    ) throws(StorageError) -> R {
        let statement: Statement
        if let cached = statements[key] {
            statement = cached
        } else {
            statement = try Statement(connection: handle, sql: sql())
            statements[key] = statement
        }
        calls.enter()
        defer {
            statement.reset()
            calls.leave()
        }
        return try body(statement)
    }

    /// Whether a transaction is open on the connection (SQLite is out of autocommit mode).
    var isInOpenTransaction: Bool {
        sqlite3_get_autocommit(handle) == 0
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int {
        Int(sqlite3_changes(handle))
    }
}
