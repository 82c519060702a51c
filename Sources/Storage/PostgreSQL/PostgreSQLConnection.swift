import CLibPQ
import Foundation

// One file for one type: the connection's calls, its COPY and its transactions share the libpq handle and the
// wait for an answer with its limit, which stay private to it.

/// One libpq connection to a PostgreSQL server, configured for pipeline's use, with the statements
/// it has prepared.
///
/// Not thread-safe and not reentrant: it is owned by the `Store` actor (through its driver) and
/// never leaves it. Every value travels as a bound parameter in text form (`PQsendQueryPrepared`), and
/// an error keeps only the server's primary message — never its DETAIL, which can quote a row, and of a
/// message that can quote a value, only what comes before it (`withoutValues`).
///
/// Every call waits for the server's answer for at most `answerLimit`, on the client's clock: the
/// server's own limits (`statement_timeout`) end a slow statement, but not a server that stopped
/// answering (its processes frozen, its host gone). The connection is then closed, and every later
/// call fails at once as a lost connection, which a command reports as "try again later".
final class PostgreSQLConnection {
    private let handle: OpaquePointer
    let address: StorageAddress
    /// Prepared statement names by the address of their SQL literal (as SQLite's cache does), or by the name of
    /// SQL built once at run time.
    private var prepared: [PreparedKey: String] = [:]
    private(set) var isInTransaction = false
    /// Checked before every call to the server.
    let calls = ExclusiveCalls(misuse: "the PostgreSQL connection was used by two calls at once")
    /// How long a call waits for the server's answer (`defaultAnswerLimit`).
    var answerLimit = PostgreSQLConnection.defaultAnswerLimit
    /// Why the connection was closed by the client (the server did not answer in time); every call then fails.
    private var abandoned: String?

    /// How much longer than the session's `statement_timeout` a call waits for its answer: a server that
    /// works answers within its own limit, with an error if need be, and the grace covers the round trip
    /// and a busy host. A command therefore ends at most `statement_timeout` and this much after its own
    /// budget: 75 s with the default timeout.
    static let answerGrace: Duration = .seconds(15)
    /// The answer limit with the default `statement_timeout`.
    static let defaultAnswerLimit: Duration = .seconds(60) + answerGrace
    /// The answer limit of a migration, which runs without a `statement_timeout` (an index over a large
    /// table may take long), and of every call when an operator turned the timeout off.
    static let migrationAnswerLimit: Duration = .seconds(3_600)

    /// Server-side limits for every session, each for a reason:
    /// - `statement_timeout`: no statement — and so no row lock a claim or a finish takes — is held
    ///   longer than a minute, whatever the server's load; a lease can never be held past its expiry
    ///   by a stuck statement;
    /// - `lock_timeout`: a writer waits for another's row lock as long as SQLite's busy timeout, then
    ///   fails with 55P03, which pipeline reports as "try again later" (exit 75);
    /// - `idle_in_transaction_session_timeout`: a process that hangs inside a transaction (a stalled
    ///   input) is disconnected and its locks released instead of blocking other workers forever.
    ///
    /// A value an operator set for pipeline's sessions — in the URL (`options=-clock_timeout%3D5s`),
    /// `PGOPTIONS`, or with `ALTER ROLE`/`ALTER DATABASE … SET` — is kept; one from the server's
    /// configuration file, meant for every client, is not.
    /// https://www.postgresql.org/docs/15/runtime-config-client.html
    static let sessionSettings: [(name: String, value: String)] = [
        ("statement_timeout", "60s"), ("lock_timeout", "15s"), ("idle_in_transaction_session_timeout", "5min"),
    ]

    /// Where a setting comes from when an operator chose it for these sessions (`pg_settings.source`).
    private static let chosenSources: Set<String> = ["client", "user", "database", "database user"]

    /// Sets `sessionSettings` but those an operator chose, and the answer limit from the session's
    /// `statement_timeout`. Whatever the server or the operator chose, notices below warnings stay on the server,
    /// and a `date` (a day of daily_logs and outbox) reads back as `YYYY-MM-DD`
    /// (https://www.postgresql.org/docs/15/datatype-datetime.html#DATATYPE-DATETIME-OUTPUT).
    private func configureSession() throws(StorageError) {
        let rows = try query(
            """
            SELECT name, setting, source FROM pg_settings
            WHERE name IN ('statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout')
            """)
        var chosen: [String: String] = [:]
        for row in 0..<rows.count where PostgreSQLConnection.chosenSources.contains(rows.string(row, 2)) {
            chosen[rows.string(row, 0)] = rows.string(row, 1)
        }
        let settings = PostgreSQLConnection.sessionSettings.filter { chosen[$0.name] == nil }
        try execute(
            (settings.map { "SET \($0.name) = '\($0.value)'" }
                + ["SET client_min_messages = 'warning'", "SET datestyle = 'ISO, YMD'"])
                .joined(separator: "; "))
        if let milliseconds = chosen["statement_timeout"].flatMap(Int64.init) {
            answerLimit =
                milliseconds > 0
                ? .milliseconds(milliseconds) + PostgreSQLConnection.answerGrace
                : PostgreSQLConnection.migrationAnswerLimit
        }
    }

    /// Connects with libpq's URI form. Defaults go first, so the URL (and then libpq's environment:
    /// PGHOST, PGUSER, PGPASSWORD, PGPASSFILE, PGSSLMODE…) overrides them: a 10-second connect
    /// timeout, so a down server fails fast, and the application name servers show in
    /// `pg_stat_activity`. https://www.postgresql.org/docs/15/libpq-connect.html
    init(url: String) throws(StorageError) {
        address = StorageAddress(url)
        // libpq is loaded by the first connection (CLibPQ): a machine without it cannot reach a server at all.
        var message = [CChar](repeating: 0, count: 512)
        guard clibpq_load(&message, message.count) == 0 else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .cannotConnect(
                location: address.displayText,
                reason: "cannot load libpq (\(CLIBPQ_LIBRARY)): " + PostgreSQLConnection.oneLine(reason)
                    + "; install libpq5")
        }
        // A URL libpq cannot read is a mistake to fix, not a server to wait for: checked first.
        var parseError: UnsafeMutablePointer<CChar>?
        if let options = PQconninfoParse(url, &parseError) {
            PQconninfoFree(options)
        } else {
            let reason = parseError.map { String(cString: $0) } ?? "libpq could not read it"
            PQfreemem(parseError)
            throw .cannotOpen(
                path: address.displayText,
                reason: "not a PostgreSQL URL libpq accepts: " + PostgreSQLConnection.oneLine(address.scrub(reason)))
        }
        // Both arrays end with NULL, as libpq requires.
        let keywords: [String?] = ["connect_timeout", "fallback_application_name", "dbname", nil]
        let values: [String?] = ["10", "pipeline", url, nil]
        let connection = withCStrings(keywords) { keywordPointers in
            withCStrings(values) { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let connection else {
            throw .cannotConnect(location: address.displayText, reason: "libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let reason = address.scrub(String(cString: PQerrorMessage(connection)))
            PQfinish(connection)
            throw .cannotConnect(location: address.displayText, reason: PostgreSQLConnection.oneLine(reason))
        }
        handle = connection
        // Nonblocking, so that sending a large statement to a server that does not read it cannot block
        // either (https://www.postgresql.org/docs/15/libpq-async.html): every wait is `wait(for:until:)`'s.
        PQsetnonblocking(connection, 1)
        // Notices ("relation already exists, skipping") are the server talking to a person at a
        // terminal; libpq prints them to stderr by default, and cron would mail them.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        try configureSession()
    }

    deinit {
        PQfinish(handle)
    }

    // MARK: Running SQL

    /// Runs SQL that binds nothing (settings, migrations, transaction control); it may hold several
    /// statements. `answerLimit` bounds the wait for its answer when given, else the connection's.
    func execute(_ sql: String, answerLimit limit: Duration? = nil) throws(StorageError) {
        calls.enter()
        defer { calls.leave() }
        let result = try answer(to: sql, within: limit) { PQsendQuery(handle, sql) }
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// Runs `sql` with `parameters` bound in order to `$1, $2, …` and returns its rows. The statement
    /// is prepared once per connection, keyed by its literal, so SQL is always a constant.
    /// With `binaryRows`, the rows come in PostgreSQL's binary format (`SQL.binaryRows`).
    @discardableResult
    func query(_ sql: StaticString, _ parameters: [String?] = [], binaryRows: Bool = false) throws(StorageError)
        -> PostgreSQLRows
    {
        precondition(sql.hasPointerRepresentation, "SQL is a string literal")
        return try query(.literal(UnsafeRawPointer(sql.utf8Start)), sql.description, parameters, binaryRows: binaryRows)
    }

    /// `query` for a statement of the seam, its rows in the format it asks for (`SQL.binaryRows`).
    func query(_ sql: SQL, _ parameters: [String?]) throws(StorageError) -> PostgreSQLRows {
        let text = sql.postgresql
        return try query(
            .literal(UnsafeRawPointer(text.literal.utf8Start)), text.text, parameters, binaryRows: sql.binaryRows)
    }

    /// `query` for long SQL built once at run time from names pipeline owns (`PostgreSQLDriver.bulkUpsertDays`),
    /// prepared under `name`, a short key unique among such statements, so a call hashes the name, not the text.
    func query(named name: String, _ sql: String, _ parameters: [String?]) throws(StorageError) -> PostgreSQLRows {
        try query(.name(name), sql, parameters)
    }

    private enum PreparedKey: Hashable {
        case literal(UnsafeRawPointer)
        case name(String)
    }

    private func query(_ key: PreparedKey, _ sql: String, _ parameters: [String?], binaryRows: Bool = false)
        throws(StorageError) -> PostgreSQLRows
    {
        calls.enter()
        defer { calls.leave() }
        let name = try preparedName(key, sql)
        let result = try withParameters(parameters, sql: sql) { (values) throws(StorageError) in
            try answer(to: sql) {
                PQsendQueryPrepared(handle, name, Int32(parameters.count), values, nil, nil, binaryRows ? 1 : 0)
            }
        }
        return try rows(of: result, sql: sql)
    }

    /// The name of `sql`'s prepared statement, preparing it on first use.
    private func preparedName(_ key: PreparedKey, _ sql: String) throws(StorageError) -> String {
        if let known = prepared[key] { return known }
        let name = "p\(prepared.count + 1)"
        let result = try answer(to: sql) { PQsendPrepare(handle, name, sql, 0, nil) }
        defer { PQclear(result) }
        try check(result, sql: sql)
        prepared[key] = name
        return name
    }

    /// Runs SQL planned afresh at each call (libpq's unnamed statement): SQL built at run time from
    /// names pipeline owns (tables and columns of `pipeline copy`), never from values, which are
    /// bound; or a constant statement whose best plan depends on its arguments' size.
    @discardableResult
    func queryUncached(_ sql: String, _ parameters: [String?] = []) throws(StorageError) -> PostgreSQLRows {
        calls.enter()
        defer { calls.leave() }
        let result = try withParameters(parameters, sql: sql) { (values) throws(StorageError) in
            try answer(to: sql) { PQsendQueryParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0) }
        }
        return try rows(of: result, sql: sql)
    }

    /// `result`'s rows; a failed result is cleared and its error thrown.
    private func rows(of result: OpaquePointer?, sql: String) throws(StorageError) -> PostgreSQLRows {
        do {
            try check(result, sql: sql)
        } catch {
            PQclear(result)
            throw error
        }
        return PostgreSQLRows(result!)
    }

    /// Calls `body` with the parameters as C strings. A parameter holding a NUL character is refused
    /// (SQLSTATE 22021, as the server refuses one): a C string ends at its first NUL, so libpq would
    /// send the value cut short, and PostgreSQL's text cannot hold the character anyway.
    private func withParameters<R>(
        _ parameters: [String?], sql: String, _ body: ([UnsafePointer<CChar>?]) throws(StorageError) -> R
    ) throws(StorageError) -> R {
        try withCStrings(parameters) { (values) throws(StorageError) in
            for (parameter, copy) in zip(parameters, values) {
                if let parameter, let copy, strlen(copy) != parameter.utf8.count {
                    throw .postgresql(
                        sqlState: "22021",
                        message: "a text value holds a NUL character (U+0000), which PostgreSQL cannot store",
                        sql: sql)
                }
            }
            return try body(values)
        }
    }

    /// Sends a call with `send` (a `PQsend…` function) and waits for its answer: the last result, or the
    /// first error of a call that holds several statements. Throws, having closed the connection, when the
    /// answer does not come within `limit` (the connection's `answerLimit` by default) or the call
    /// cannot be sent.
    private func answer(
        to sql: String, within limit: Duration? = nil, _ send: () -> Int32
    ) throws(StorageError) -> OpaquePointer? {
        let call = try Call(sending: sql, within: limit ?? answerLimit, on: self, send)
        try flushOutput(call)
        return try results(of: call)
    }

    /// A call sent to the server: its SQL (for errors) and when its answer is due.
    private struct Call {
        let sql: String
        let limit: Duration
        let deadline: ContinuousClock.Instant

        init(
            sending sql: String, within limit: Duration, on connection: PostgreSQLConnection, _ send: () -> Int32
        ) throws(StorageError) {
            if let abandoned = connection.abandoned {
                throw .postgresql(sqlState: "08006", message: abandoned, sql: sql)
            }
            self.sql = sql
            self.limit = limit
            deadline = ContinuousClock.now + limit
            guard send() == 1 else { throw connection.lostConnection(sql) }
        }
    }

    /// Sends what libpq holds of `call` for the server. Nonblocking: what libpq could not hand to the kernel
    /// yet is sent as the server reads, and what the server says meanwhile (an error) is read.
    private func flushOutput(_ call: Call) throws(StorageError) {
        while true {
            let flushed = PQflush(handle)
            if flushed == 0 { return }
            if flushed < 0 { throw lostConnection(call.sql) }
            if try wait(for: Int16(POLLIN | POLLOUT), until: call.deadline, limit: call.limit, sql: call.sql)
                & Int16(POLLIN) != 0
            {
                _ = PQconsumeInput(handle)
            }
        }
    }

    /// Waits for `call`'s next result: `nil` when it has no more.
    private func nextResult(of call: Call) throws(StorageError) -> OpaquePointer? {
        // `PQisBusy` is false once a result is ready, or the connection is lost (then `PQgetResult`
        // returns its error at once).
        while PQisBusy(handle) != 0 {
            _ = try wait(for: Int16(POLLIN), until: call.deadline, limit: call.limit, sql: call.sql)
            _ = PQconsumeInput(handle)
        }
        return PQgetResult(handle)
    }

    /// `call`'s answer: its last result, or its first error.
    private func results(of call: Call) throws(StorageError) -> OpaquePointer? {
        var kept: OpaquePointer?
        while let next = try nextResult(of: call) {
            if let current = kept, PostgreSQLConnection.isError(current) {
                PQclear(next)
            } else {
                PQclear(kept)
                kept = next
            }
        }
        return kept
    }

    // MARK: COPY

    /// Runs `sql`, whose last statement is a `COPY … FROM STDIN` in text format (statements before it, such
    /// as the `TRUNCATE` of the table it fills, run first), with `rows` rows that `write` writes by their index
    /// (`CopyTextRows`: each a line, its columns separated by tabs). Values travel in the rows, never in `sql`.
    /// The rows are written and sent a piece at a time, so the server reads and stores each piece while the next
    /// is written: a bulk load costs about the larger of the two sides' work, not their sum. A statement or a row
    /// the server refuses throws its error, as `execute` does; the statement's other rows are then not copied
    /// (https://www.postgresql.org/docs/15/sql-copy.html). Waits at most `answerLimit` in all.
    /// https://www.postgresql.org/docs/15/libpq-copy.html
    func copy(_ sql: String, rows: Int, write: (Int, inout CopyTextRows) -> Void) throws(StorageError) {
        calls.enter()
        defer { calls.leave() }
        let call = try Call(sending: sql, within: answerLimit, on: self) { PQsendQuery(handle, sql) }
        try flushOutput(call)
        // The results of the statements before the COPY, then the one that asks for its rows; or an error,
        // which ends the call there.
        var failed: OpaquePointer?
        while let next = try nextResult(of: call) {
            if PQresultStatus(next) == PGRES_COPY_IN {
                PQclear(next)
                try send(rows, write, of: call)
                break
            }
            if failed == nil, PostgreSQLConnection.isError(next) { failed = next } else { PQclear(next) }
        }
        if let failed {
            // The call has ended: nothing more to read.
            defer { PQclear(failed) }
            try check(failed, sql: sql)
        }
        let result = try results(of: call)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// Rows a COPY's piece holds: about 50 kB of days, sent while the next piece is written.
    static let copyPieceRows = 512

    /// Writes a COPY's rows a piece at a time and queues each as it is written, then the COPY's end. libpq queues
    /// a piece without blocking and hands the kernel what it can at once; what waits is sent with the next piece,
    /// or before the end.
    private func send(_ count: Int, _ write: (Int, inout CopyTextRows) -> Void, of call: Call) throws(StorageError) {
        var piece = CopyTextRows(reservingCapacity: 128 * min(count, PostgreSQLConnection.copyPieceRows))
        var row = 0
        while row < count {
            let end = min(count, row + PostgreSQLConnection.copyPieceRows)
            piece.removeAll()
            for index in row..<end { write(index, &piece) }
            row = end
            while true {
                let queued = piece.bytes.withUnsafeBytes { bytes in
                    PQputCopyData(handle, bytes.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
                }
                if queued == 1 { break }
                if queued < 0 { throw lostConnection(call.sql) }
                try flushOutput(call)  // libpq's buffer is full: sent on, then queued again
            }
            if PQflush(handle) < 0 { throw lostConnection(call.sql) }
        }
        while true {
            switch PQputCopyEnd(handle, nil) {
            case 1:
                try flushOutput(call)
                return
            case 0: try flushOutput(call)
            default: throw lostConnection(call.sql)
            }
        }
    }

    /// Waits until the connection's socket is ready for `events`, or throws when `deadline` (`limit` after
    /// the call was sent) passes first: the connection is then closed, so the server's late answer can never
    /// be taken for the next call's. Returns the events that happened.
    private func wait(
        for events: Int16, until deadline: ContinuousClock.Instant, limit: Duration, sql: String
    ) throws(StorageError) -> Int16 {
        var descriptor = pollfd(fd: PQsocket(handle), events: events, revents: 0)
        guard descriptor.fd >= 0 else { throw lostConnection(sql) }
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            if left <= .zero { break }
            let milliseconds = Int32(min(left / .milliseconds(1), Double(Int32.max)).rounded(.up))
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return descriptor.revents }
            if ready < 0, errno != EINTR { throw lostConnection(sql) }
        }
        let reason = "the server did not answer within \(limit.components.seconds) s; the connection was closed"
        abandon(reason)
        throw .postgresql(sqlState: "08006", message: reason, sql: sql)
    }

    /// Closes the connection's socket for good (libpq frees it with the connection): the server sees it end and
    /// rolls back what it had open, and every later call fails with `reason`.
    private func abandon(_ reason: String) {
        abandoned = reason
        isInTransaction = false
        let socket = PQsocket(handle)
        if socket >= 0 { shutdown(socket, Int32(SHUT_RDWR)) }
    }

    /// The error of a call `sql` that could not reach the server.
    private func lostConnection(_ sql: String) -> StorageError {
        let reason = PostgreSQLConnection.oneLine(address.scrub(String(cString: PQerrorMessage(handle))))
        return .postgresql(sqlState: "08006", message: "the connection to the server was lost: " + reason, sql: sql)
    }

    private static func isError(_ result: OpaquePointer) -> Bool {
        let status = PQresultStatus(result)
        return status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK
    }

    // MARK: Transactions

    /// Begins a transaction, at READ COMMITTED (the server's default); they do not nest.
    func begin() throws(StorageError) {
        precondition(!isInTransaction, "transactions do not nest")
        try execute("BEGIN")
        isInTransaction = true
    }

    /// Commits. A transaction a failed statement aborted answers COMMIT with ROLLBACK; that is an
    /// error here, not a silent loss.
    func commit() throws(StorageError) {
        calls.enter()
        defer { calls.leave() }
        isInTransaction = false
        let result = try answer(to: "COMMIT") { PQsendQuery(handle, "COMMIT") }
        defer { PQclear(result) }
        try check(result, sql: "COMMIT")
        if let status = PQcmdStatus(result), String(cString: status) == "ROLLBACK" {
            throw .postgresql(sqlState: "40000", message: "the transaction was rolled back", sql: "COMMIT")
        }
    }

    /// Rolls back the open transaction. A failure here has nothing to recover: the server rolls an
    /// unfinished transaction back when the session ends (or the connection was closed already).
    func rollback() {
        guard isInTransaction else { return }
        isInTransaction = false
        calls.enter()
        defer { calls.leave() }
        PQclear(try? answer(to: "ROLLBACK") { PQsendQuery(handle, "ROLLBACK") })
    }

    // MARK: Errors

    private func check(_ result: OpaquePointer?, sql: String) throws(StorageError) {
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        guard status != PGRES_COMMAND_OK, status != PGRES_TUPLES_OK else { return }
        var sqlState =
            result.flatMap { PQresultErrorField($0, PostgreSQLConnection.sqlStateField) }
            .map { String(cString: $0) } ?? ""
        var message =
            result.flatMap { PQresultErrorField($0, PostgreSQLConnection.primaryMessageField) }
            .map { String(cString: $0) } ?? String(cString: PQerrorMessage(handle))
        message = PostgreSQLConnection.withoutValues(message, sqlState: sqlState)
        if PQstatus(handle) != CONNECTION_OK {
            // The server went away (restart, failover, network): libpq has no SQLSTATE for it.
            if sqlState.isEmpty { sqlState = "08006" }
            message = "the connection to the server was lost: " + message
        }
        throw .postgresql(
            sqlState: sqlState.isEmpty ? "XX000" : sqlState,
            message: PostgreSQLConnection.oneLine(address.scrub(message)), sql: sql)
    }

    /// A server message with every value it may quote left out. A data exception (class 22) quotes
    /// the value it refused — `invalid input syntax for type integer: "…"`, `value "…" is out of range`,
    /// `malformed array literal: "…"`, a row of notes at a time — so only its words before the first
    /// quote or colon are kept. A message raised by a function or trigger (class P0) is its author's
    /// text, which may hold anything, so none of it is kept. Other classes name objects (tables,
    /// constraints, columns), not values; the values are in DETAIL, which is never read.
    /// https://www.postgresql.org/docs/15/errcodes-appendix.html
    static func withoutValues(_ message: String, sqlState: String) -> String {
        if sqlState.hasPrefix("P0") {
            return
                "an error raised by a function or trigger on the server (its text is not shown: it may quote a value)"
        }
        guard sqlState.hasPrefix("22") else { return message }
        let words = message.prefix { $0 != "\"" && $0 != ":" }.trimmingCharacters(in: .whitespaces)
        return words.split(separator: " ").count >= 3 ? words : "a value was refused (data exception)"
    }

    /// `PG_DIAG_SQLSTATE` and `PG_DIAG_MESSAGE_PRIMARY` are character macros Swift does not import.
    /// https://www.postgresql.org/docs/15/libpq-exec.html#LIBPQ-PQRESULTERRORFIELD
    private static let sqlStateField = Int32(UInt8(ascii: "C"))
    private static let primaryMessageField = Int32(UInt8(ascii: "M"))

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }
}

/// Calls `body` with C strings for `strings` (NULL for `nil`), valid only inside `body`.
private func withCStrings<R, Failure: Error>(
    _ strings: [String?], _ body: ([UnsafePointer<CChar>?]) throws(Failure) -> R
) throws(Failure) -> R {
    let storage: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0) } ?? nil }
    defer { storage.forEach { free($0) } }
    return try body(storage.map { $0.map { UnsafePointer($0) } })
}
