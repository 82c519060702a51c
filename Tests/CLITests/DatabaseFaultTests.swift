import Domain
import Foundation
import Glibc
import PipelineKit
import TestSupport
import Testing

@testable import Storage

/// `pipeline` when the database fails under it, as on a real server: a record the database refuses, a
/// connection lost in the middle of an input, a disk that fills, a copy into a database that cannot hold a
/// value. Each ends with its exit status and message, never a signal; the good lines around a refused one
/// are kept; and no output repeats a stored value.
@Suite("Database faults", .timeLimit(.minutes(10)))
struct DatabaseFaultTests {
    static let now = "2026-03-15T12:00:00Z"
    /// Planted in every text field the input has; no output may show it.
    static let marker = "MARKER-81723"

    /// Lines with the marker in every text field that can hold it — notes, a watch item's kind, its
    /// payload's keys and strings — all valid, for users `u0`…, with one entry per day of February.
    static func markedInput(users: Int = 3, prefix: String = "u") -> [String] {
        var lines: [String] = []
        for number in 0..<users {
            let user = "\(prefix)\(number)"
            for day in 1...28 {
                let date = String(format: "2026-02-%02d", day)
                lines.append(
                    #"{"type":"entry","user":"\#(user)","day":"\#(date)","mood":3,"notes":"fine \#(marker)"}"#)
            }
            lines.append(
                #"{"type":"watch","user":"\#(user)","kind":"\#(marker)-kind","payload":{"\#(marker)":"\#(marker)"}}"#)
            lines.append(
                #"{"type":"watch","user":"\#(user)","kind":"symptomLog","payload":{"day":"2026-02-02","symptomSeverity":4,"notes":"\#(marker)"}}"#
            )
        }
        return lines
    }

    /// Expects that `run` ended by exiting with `status` (not a signal) and printed nothing of the marker.
    static func expectClean(_ run: BinaryRun, status: Int32, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.uncaughtSignal == nil, "ended by signal \(run.uncaughtSignal ?? 0)", sourceLocation: sourceLocation)
        #expect(run.status == status, "\(run.stderr)", sourceLocation: sourceLocation)
        #expect(!run.stdout.contains(marker) && !run.stderr.contains(marker), sourceLocation: sourceLocation)
        #expect(!run.stderr.contains("\u{0}"), sourceLocation: sourceLocation)
    }

    @Test(
        "a NUL character in notes or a watch kind is refused with its line and field; the good lines are kept",
        arguments: TestBackend.all)
    func nulCharacters(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let input = [
            #"{"type":"entry","user":"ada","day":"2026-03-01","mood":3,"notes":"ab\u0000cd"}"#,
            #"{"type":"watch","user":"ada","kind":"sym\u0000ptomLog","payload":{"day":"2026-03-01","mood":4}}"#,
            #"{"type":"watch","user":"ada","kind":"symptomLog","payload":{"day":"2026-03-02","symptomSeverity":4,"notes":"x\u0000"}}"#,
            // A payload is kept as written: its escape is six characters, which either database stores.
            #"{"type":"watch","user":"ada","kind":"laterKind","payload":{"note":"a\u0000b"}}"#,
            #"{"type":"entry","user":"ada","day":"2026-03-03","mood":4,"notes":"ok"}"#,
        ].joined(separator: "\n")
        let run = try await runBinary(["ingest", "-", "--db", database.path, "--now", Self.now], stdin: input)
        Self.expectClean(run, status: 65)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        let problem = "holds a NUL character (\\u0000), which the database cannot store"
        #expect(
            lines.prefix(3) == [
                "line 1: notes: \(problem)", "line 2: kind: \(problem)", "line 3: payload.notes: \(problem)",
            ])
        let pipeline = try await database.open()
        let logs = try await pipeline.store.dailyLogs(user: UserID.literal("ada"))
        #expect(logs.map(\.day.description) == ["2026-03-03"])
        let queued = try await pipeline.store.allWatchItems()
        #expect(queued.map(\.payload) == [#"{"note":"a\u0000b"}"#])
    }

    /// A trigger of the operator's refuses marked notes (on PostgreSQL its message quotes them). Before each
    /// statement of a batch ran under a savepoint, PostgreSQL's refusal failed the whole batch and the
    /// message quoted the row; on SQLite the record alone was refused.
    @Test(
        "a record the database refuses costs that record: the batch's other lines are stored, nothing is quoted",
        arguments: TestBackend.all)
    func refusedRecord(backend: TestBackend) async throws {
        try await Self.ingestWithRefusedLine(backend: backend, users: 3)
    }

    /// As `refusedRecord`, with 40 users: their 1,120 days go to PostgreSQL through COPY and one merge, which the
    /// trigger refuses whole; the chunk is staged again day by day, and the refused line named.
    @Test(
        "a record the database refuses in a chunk PostgreSQL copies costs that record alone, and is named by its line",
        .postgreSQL)
    func refusedRecordInACopiedChunk() async throws {
        #expect(40 * 28 >= PostgreSQLDriver.copiedFrom)
        try await Self.ingestWithRefusedLine(backend: .postgresql, users: 40)
    }

    /// User and settings records are staged many under one savepoint. A settings record an operator's trigger
    /// refuses is undone with the user its statement had just created; that user is then no longer taken as
    /// stored, so the user's days later in the input create it again instead of being refused for a missing user.
    @Test(
        "a refused settings record costs that record alone: the records staged with it are kept, and its user's days",
        arguments: TestBackend.all)
    func refusedSettings(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        _ = try await database.open()
        switch backend {
        case .sqlite:
            try Store.executeForTesting(
                at: database.path,
                """
                CREATE TRIGGER refuse_23 BEFORE INSERT ON user_settings WHEN NEW.value = '23'
                BEGIN SELECT RAISE(ABORT, 'refused'); END;
                """)
        case .postgresql:
            try Store.executeForTesting(
                at: database.path,
                """
                CREATE FUNCTION refuse_23() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF NEW.value::text = '23' THEN RAISE EXCEPTION 'refused'; END IF;
                    RETURN NEW;
                END $$;
                CREATE TRIGGER refuse_23 BEFORE INSERT ON user_settings FOR EACH ROW EXECUTE FUNCTION refuse_23();
                """)
        }
        let input = [
            #"{"type":"user","user":"ada","timeZone":"Europe/Paris"}"#,
            #"{"type":"settings","user":"new","reminderHour":23}"#,
            #"{"type":"settings","user":"ada","reminderHour":7}"#,
            #"{"type":"entry","user":"new","day":"2026-02-10","mood":3}"#,
            #"{"type":"entry","user":"ada","day":"2026-02-10","mood":4}"#,
        ]
        let run = try await runBinary(
            ["ingest", "-", "--db", database.path, "--now", Self.now], stdin: input.joined(separator: "\n"))
        Self.expectClean(run, status: 65)
        #expect(run.stderr.hasPrefix("line 2: settings: refused by the database"), "\(run.stderr)")
        let pipeline = try await database.open()
        #expect(try await pipeline.store.user(UserID.literal("ada"))?.timeZone.identifier == "Europe/Paris")
        #expect(try await pipeline.store.settings(for: UserID.literal("ada")).reminderHour == 7)
        #expect(try await pipeline.store.settings(for: UserID.literal("new")).reminderHour == 20)
        for user in ["new", "ada"] {
            let logs = try await pipeline.store.dailyLogs(user: UserID.literal(user))
            #expect(logs.map(\.day.description) == ["2026-02-10"], "\(user)")
        }
    }

    /// Ingests `users` users' 28 days with line 41 carrying notes an operator's trigger refuses, and checks that
    /// line alone is refused, named, and quoted nowhere.
    static func ingestWithRefusedLine(
        backend: TestBackend, users: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let database = TestDatabase(backend)
        _ = try await database.open()
        switch backend {
        case .sqlite:
            try Store.executeForTesting(
                at: database.path,
                """
                CREATE TRIGGER refuse_marked_insert BEFORE INSERT ON daily_logs WHEN NEW.notes LIKE '%refuse me%'
                BEGIN SELECT RAISE(ABORT, 'refused'); END;
                CREATE TRIGGER refuse_marked_update BEFORE UPDATE ON daily_logs WHEN NEW.notes LIKE '%refuse me%'
                BEGIN SELECT RAISE(ABORT, 'refused'); END;
                """)
        case .postgresql:
            try Store.executeForTesting(
                at: database.path,
                """
                CREATE FUNCTION refuse_marked() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF NEW.notes LIKE '%refuse me%' THEN RAISE EXCEPTION 'refused notes: %', NEW.notes; END IF;
                    RETURN NEW;
                END $$;
                CREATE TRIGGER refuse_marked BEFORE INSERT OR UPDATE ON daily_logs
                    FOR EACH ROW EXECUTE FUNCTION refuse_marked();
                """)
        }
        var input = Self.markedInput(users: users)
        input[40] = #"{"type":"entry","user":"u1","day":"2026-02-11","mood":3,"notes":"refuse me \#(Self.marker)"}"#
        let run = try await runBinary(
            ["ingest", "-", "--db", database.path, "--now", Self.now], stdin: input.joined(separator: "\n"))
        Self.expectClean(run, status: 65, sourceLocation: sourceLocation)
        #expect(
            run.stderr.hasPrefix("line 41: entry: refused by the database"), "\(run.stderr)",
            sourceLocation: sourceLocation)
        let pipeline = try await database.open()
        #expect(try await pipeline.store.summary().dailyLogs == users * 28 - 1, sourceLocation: sourceLocation)
        #expect(
            try await pipeline.store.dailyLog(user: UserID.literal("u1"), day: Day.literal("2026-02-11")) == nil,
            sourceLocation: sourceLocation)
    }

    @Test("an ingestion that fills the disk exits 74 with its message, no signal, and quotes nothing")
    func fullDisk() async throws {
        let database = TestDatabase()
        let pipeline = try await database.open()
        let size = try FileManager.default.attributesOfItem(atPath: database.path)[.size] as? Int ?? 0
        var input: [String] = []
        for round in 0..<40 { input += Self.markedInput(users: 10, prefix: "r\(round)-") }
        let run = try await runBinary(
            ["ingest", "-", "--db", database.path, "--now", Self.now], stdin: input.joined(separator: "\n"),
            fileSizeLimit: size / 1024 + 256)
        Self.expectClean(run, status: 74)
        #expect(run.stderr.contains("the disk is full or failing"))
        #expect(try await pipeline.store.integrityCheck() == "ok")
    }

    /// The ingestion's connection is ended by the server (`pg_terminate_backend`, what a restart does to
    /// every session) while it waits for more input. Before the reader gave back its chunks' slots, the
    /// writer's error ended the process with SIGILL two times in three.
    @Test(
        "an ingestion whose server connection is lost exits 75 with its message; what it committed stays",
        .postgreSQL)
    func connectionLost() async throws {
        let database = TestDatabase(.postgresql)
        _ = try await database.open()
        let name = "fault-" + UUID().uuidString.prefix(8).lowercased()
        let address = database.path + "&application_name=\(name)"
        let ingest = try StreamingBinary(["ingest", "-", "--db", address, "--now", Self.now])
        let lines = Self.markedInput(users: 600)
        ingest.write(lines.prefix(600).joined(separator: "\n") + "\n")
        let store = try Store(path: database.path, clock: database.clock)
        // The first lines are committed as soon as the input has nothing more ready.
        for _ in 0..<600 where try await store.summary().dailyLogs < 500 {
            try await Task.sleep(for: .milliseconds(100))
        }
        let committed = try await store.summary().dailyLogs
        #expect(committed >= 500)
        try await store.executeForTesting(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '\(name)'")
        ingest.write(lines.dropFirst(600).joined(separator: "\n") + "\n")
        let run = try await ingest.finish()
        Self.expectClean(run, status: 75)
        #expect(run.stderr.contains("try again later"), "\(run.stderr)")
        #expect(try await store.summary().dailyLogs >= committed)
    }

    @Test(
        "a copy that fails on a value PostgreSQL cannot store names its row, not its value, and leaves nothing",
        .postgreSQL)
    func copyRefused() async throws {
        let source = TestDatabase(.sqlite)
        let run = try await runBinary(
            ["ingest", "-", "--db", source.path, "--now", Self.now],
            stdin: Self.markedInput().joined(separator: "\n"))
        #expect(run.status == 0, "\(run.stderr)")
        // As an older version stored it, before the decoder refused the character.
        try Store.executeForTesting(
            at: source.path,
            "UPDATE daily_logs SET notes = '\(Self.marker)' || char(0) || 'x' WHERE user_id = 'u2' AND day = '2026-02-05'"
        )
        let target = TestDatabase(.postgresql)
        let copy = try await runBinary(["copy", "--from", source.path, "--to", target.path])
        Self.expectClean(copy, status: 65)
        #expect(
            copy.stderr.contains(
                "daily_logs.notes of the row with user_id u2, day 2026-02-05 holds a NUL character"), "\(copy.stderr)")
        let store = try Store(path: target.path)
        #expect(try await store.tablesHoldingRows().isEmpty)
    }

    @Test("a copy into a disk that fills exits 74, quotes nothing, and leaves no database behind half-written")
    func copyToFullDisk() async throws {
        let source = TestDatabase(.sqlite)
        var input: [String] = []
        for round in 0..<20 { input += Self.markedInput(users: 10, prefix: "r\(round)-") }
        let ingest = try await runBinary(
            ["ingest", "-", "--db", source.path, "--now", Self.now], stdin: input.joined(separator: "\n"))
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let target = TestDatabase(.sqlite)
        _ = try await target.open()
        let size = try FileManager.default.attributesOfItem(atPath: target.path)[.size] as? Int ?? 0
        let copy = try await runBinary(
            ["copy", "--from", source.path, "--to", target.path], fileSizeLimit: size / 1024 + 128)
        Self.expectClean(copy, status: 74)
        #expect(try await Store(path: target.path).tablesHoldingRows().isEmpty)
    }
}
