import Domain
import Foundation
import Glibc
import TestSupport
import Testing

@testable import Storage

/// The client side of a PostgreSQL connection against a real server: what it refuses to send, what it
/// keeps of the server's messages, and how long it waits for an answer.
@Suite("A PostgreSQL connection", .postgreSQL)
struct PostgreSQLConnectionTests {
    static let marker = "MARKER-4711"

    /// A connection to a new schema of the test server.
    static func connect(_ database: TestDatabase = TestDatabase(.postgresql)) throws -> PostgreSQLConnection {
        _ = try Store(path: database.path, clock: database.clock)
        return try PostgreSQLConnection(url: database.path)
    }

    /// Rows asked for in PostgreSQL's binary format (`SQL.binaryRows`) read as their text would: each integer
    /// width with its sign, both float widths exactly, booleans, text, and NULL.
    @Test("rows in the binary format read as the same values as in the text format")
    func binaryRows() throws {
        let connection = try Self.connect()
        let sql: StaticString = """
            SELECT (-5)::smallint, (-70000)::integer, (-9007199254740993)::bigint, 9223372036854775807::bigint,
                (1.5)::real, (-0.1)::double precision, 1e300::double precision, true, false, 'Zoë ✓'::text,
                NULL::integer, 42::integer
            """
        for binary in [false, true] {
            let rows = try connection.query(sql, [], binaryRows: binary)
            #expect(rows.count == 1)
            #expect(rows.int64(0) == -5 && rows.int64(1) == -70000, "binary: \(binary)")
            #expect(rows.int64(2) == -9_007_199_254_740_993 && rows.int64(3) == .max, "binary: \(binary)")
            #expect(rows.double(4) == 1.5 && rows.double(5) == -0.1 && rows.double(6) == 1e300, "binary: \(binary)")
            #expect(rows.bool(7) && !rows.bool(8), "binary: \(binary)")
            #expect(rows.string(9) == "Zoë ✓", "binary: \(binary)")
            #expect(rows.optionalInt(10) == nil && rows.optionalInt(11) == 42, "binary: \(binary)")
            #expect(rows.double(11) == 42, "binary: \(binary)")
        }
    }

    /// libpq sends parameters as C strings, which end at a NUL: before the driver refused them, notes
    /// of "ab\u{0}cd" were stored as "ab" by a single upsert, and an array of them was refused with
    /// the array quoted. (Checked by removing the check in `withParameters`: the query answered "ab".)
    @Test("a text parameter holding a NUL is refused as PostgreSQL would refuse it, never cut short")
    func nulParameter() throws {
        let connection = try Self.connect()
        do {
            try connection.query("SELECT $1::text", ["ab\u{0}\(Self.marker)"])
            Issue.record("a NUL was sent")
        } catch {
            #expect(error.isRecordRefusal)
            guard case .postgresql(let state, _, _) = error else { throw error }
            #expect(state == "22021")
            #expect(!error.description.contains(Self.marker))
        }
    }

    @Test(
        "a data exception's message keeps its words before the value it refused, never the value",
        arguments: [
            "SELECT $1::integer", "SELECT $1::date", "SELECT $1::json", "SELECT ('{' || $1 || '}')::integer[]",
            "SELECT ($1 || '1')::smallint",
        ])
    func messagesWithoutValues(sql: String) throws {
        let connection = try Self.connect()
        do {
            try connection.queryUncached(sql, ["\"\(Self.marker)\" 99999999"])
            Issue.record("\(sql) was accepted")
        } catch {
            #expect(!error.description.contains(Self.marker), "\(error)")
            #expect(error.isRecordRefusal)
        }
    }

    @Test("the text of an error a function or trigger raises is not shown: it may quote a value")
    func raisedMessages() throws {
        let connection = try Self.connect()
        try connection.execute(
            "CREATE FUNCTION pg_temp.refuse(t text) RETURNS void LANGUAGE plpgsql AS "
                + "$$ BEGIN RAISE EXCEPTION 'refused: %', t; END $$")
        let error = #expect(throws: StorageError.self) {
            try connection.queryUncached("SELECT pg_temp.refuse($1)", [Self.marker])
        }
        #expect(error?.description.contains(Self.marker) == false, "\(String(describing: error))")
        #expect(error?.description.contains("raised by a function or trigger") == true)
        #expect(error?.isRecordRefusal == true)
    }

    /// Before calls were sent without blocking and their answers awaited with `poll`, a server whose
    /// processes were frozen held a retrain for as long as they were (11 minutes, past its budget). The
    /// backend is woken after 20 s whatever happens, so a call that waits for it fails this test then
    /// instead of hanging it. (Checked with `answer` waiting in `PQgetResult` again: the call returned
    /// only when the backend was woken, and the test failed.)
    @Test("a server that stops answering ends the call at the answer limit; later calls fail at once")
    func frozenServer() async throws {
        let connection = try Self.connect()
        connection.answerLimit = .seconds(2)
        let backend = pid_t(try connection.query("SELECT pg_backend_pid()").int64(0, 0))
        #expect(kill(backend, SIGSTOP) == 0)
        let wake = Task {
            try? await Task.sleep(for: .seconds(20))
            kill(backend, SIGCONT)
        }
        defer {
            wake.cancel()
            kill(backend, SIGCONT)
        }
        let timedOut = #expect(throws: StorageError.self) { try connection.query("SELECT 1") }
        #expect(timedOut?.isBusy == true)
        #expect(timedOut?.description.contains("did not answer within 2 s") == true, "\(String(describing: timedOut))")
        let after = #expect(throws: StorageError.self) { try connection.query("SELECT 2") }
        #expect(after?.isBusy == true)
    }

    @Test("timeouts an operator sets in the URL are kept; the answer limit follows the statement timeout")
    func operatorTimeouts() throws {
        let database = TestDatabase(.postgresql)
        _ = try Store(path: database.path, clock: database.clock)
        let url = database.path + "%20-clock_timeout%3D1500ms%20-cstatement_timeout%3D5s"
        let connection = try PostgreSQLConnection(url: url)
        #expect(try connection.query("SELECT current_setting('lock_timeout')").string(0, 0) == "1500ms")
        #expect(try connection.query("SELECT current_setting('statement_timeout')").string(0, 0) == "5s")
        #expect(connection.answerLimit == .seconds(20))
        let defaults = try Self.connect(database)
        #expect(try defaults.query("SELECT current_setting('lock_timeout')").string(0, 0) == "15s")
        #expect(defaults.answerLimit == .seconds(75))
    }

    @Test("a store's sessions plan each statement for its arguments, on one process, and never compile it")
    func planningSettings() throws {
        let database = TestDatabase(.postgresql)
        let driver = try PostgreSQLDriver(url: database.path)
        let setting = { (name: String) throws in
            try driver.connection.queryUncached("SELECT current_setting($1)", [name]).string(0, 0)
        }
        #expect(try setting("plan_cache_mode") == "force_custom_plan")
        #expect(try setting("max_parallel_workers_per_gather") == "0")
        #expect(try setting("jit") == "off")
        let reader = try PostgreSQLDriver(url: database.path, readOnly: true)
        #expect(try reader.connection.queryUncached("SELECT current_setting('jit')").string(0, 0) == "off")
    }

    /// The server folds an unquoted name in `search_path` to lower case; the schema was created with its
    /// case as written, and every command failed with 3F000 (no schema selected to create in).
    @Test("a mixed-case schema in the URL's search_path is the one the server reads, created and used")
    func mixedCaseSchema() async throws {
        let name = "Mixed_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let store = try Store(path: TestBackend.postgresURL(schema: name))
        var entry = UserEntry(user: UserID.literal("ada"), day: Day.literal("2026-03-01"))
        entry.mood = .set(4)
        try await store.write(entry)
        #expect(try await store.dailyLogs(user: UserID.literal("ada")).map(\.mood) == [4])
        let connection = try PostgreSQLConnection(url: TestBackend.postgresURL(schema: name))
        #expect(try connection.query("SELECT current_schema()").string(0, 0) == name.lowercased())
        #expect(PostgreSQLDriver.schemaName("\"Quoted\"\"Name\"") == "Quoted\"Name")
    }
}
