import Domain
import Foundation
import Ingestion
import PipelineKit
import Storage
import TestSupport
import Testing

/// A corpus of bad JSON Lines input, each line with the exact message a user sees, interleaved with
/// good lines that must all land.
@Suite("Bad input")
struct BadInputTests {
    /// (bytes of the bad line, expected message after "line N: ").
    static let corpus: [(line: [UInt8], message: String)] = {
        func text(_ line: String, _ message: String) -> ([UInt8], String) { (Array(line.utf8), message) }
        let entry = #""type":"entry","user":"bob","day":"2026-03-02""#
        let health = #""type":"health","user":"bob","day":"2026-03-02""#
        return [
            // Broken JSON
            text(#"{"type":"entry","user":"bob""#, "json: unexpected end of input inside an object at column 29"),
            text(#"{"type":"entry",}"#, "json: trailing comma in an object at column 17"),
            text(#"{type:"entry"}"#, "json: expected a key in double quotes at column 2"),
            text(#"{'type':'entry'}"#, "json: expected a key in double quotes at column 2"),
            text(#"{"type":"entry"} {"type":"entry"}"#, "json: unexpected text after the JSON value at column 18"),
            text(#"["entry"]"#, "json: expected one object per line, got an array"),
            text(#""entry""#, "json: expected one object per line, got a string"),
            text(
                #"{"type":"entry","user":"bob","day":"2026-03-02","mood":03}"#,
                "json: numbers must not have leading zeros at column 56"),
            text(#"{"type":"entry","user":"bob","notes":"a\qb"}"#, "json: invalid escape at column 40"),
            text(
                #"{"type":"entry","user":"bob","notes":"\ud800"}"#, "json: lone surrogate in a \\u escape at column 39"),
            text(
                "{\"type\":\"entry\",\"user\":\"bob\",\"notes\":\"tab\there\"}",
                "json: control character in a string; escape it at column 42"),
            text(#"{"type":"entry","type":"health"}"#, #"json: duplicate key "type" at column 17"#),
            text(
                String(repeating: "[", count: 70) + String(repeating: "]", count: 70),
                "json: nested deeper than 64 levels at column 65"),
            // NaN and Infinity
            text("{\(entry),\"hrv\":NaN}", "json: NaN and Infinity are not JSON numbers at column 55"),
            text("{\(entry),\"hrv\":Infinity}", "json: NaN and Infinity are not JSON numbers at column 55"),
            text("{\(entry),\"hrv\":-Infinity}", "json: NaN and Infinity are not JSON numbers at column 56"),
            text(
                "{\(entry),\"hrv\":1e400}", "json: number is too large for a 64-bit floating-point value at column 55"),
            // Record type and user
            text(
                #"{"user":"bob","day":"2026-03-02"}"#,
                "type: missing; expected one of user, settings, entry, health, watch"),
            text(
                #"{"type":"meal","user":"bob"}"#,
                "type: unknown record type; expected one of user, settings, entry, health, watch"),
            text(#"{"type":7,"user":"bob"}"#, "type: expected a string, got a number"),
            text(#"{"type":"entry","day":"2026-03-02","mood":3}"#, "user: missing"),
            text(
                #"{"type":"entry","user":"","day":"2026-03-02","mood":3}"#,
                "user: must be 1–64 characters of A–Z, a–z, 0–9, '.', '_' or '-'"),
            text(
                #"{"type":"entry","user":"bob smith","day":"2026-03-02","mood":3}"#,
                "user: must be 1–64 characters of A–Z, a–z, 0–9, '.', '_' or '-'"),
            text(#"{"type":"entry","user":42,"day":"2026-03-02","mood":3}"#, "user: expected a string, got a number"),
            // Days
            text(
                #"{"type":"entry","user":"bob","day":"2026-02-30","mood":3}"#,
                "day: not a calendar date in the form YYYY-MM-DD"),
            text(
                #"{"type":"entry","user":"bob","day":"2026-13-01","mood":3}"#,
                "day: not a calendar date in the form YYYY-MM-DD"),
            text(
                #"{"type":"entry","user":"bob","day":"2026-3-1","mood":3}"#,
                "day: not a calendar date in the form YYYY-MM-DD"),
            text(
                #"{"type":"entry","user":"bob","day":"2025-02-29","mood":3}"#,
                "day: not a calendar date in the form YYYY-MM-DD"),
            text(
                #"{"type":"entry","user":"bob","day":20260302,"mood":3}"#,
                "day: expected a date string YYYY-MM-DD, got a number"),
            text(#"{"type":"entry","user":"bob","mood":3}"#, "day: missing"),
            text(
                #"{"type":"entry","user":"bob","day":"2026-03-17","mood":3}"#,
                "day: is more than one day after today (2026-03-15 in UTC); future days are refused"),
            // Wrong types and bounds
            text("{\(entry),\"symptomSeverity\":\"4\"}", "symptomSeverity: expected a number or null, got a string"),
            text("{\(entry),\"symptomSeverity\":11}", "symptomSeverity: must be between 0 and 10"),
            text("{\(entry),\"symptomSeverity\":-1}", "symptomSeverity: must be between 0 and 10"),
            text("{\(entry),\"symptomSeverity\":4.5}", "symptomSeverity: must be a whole number"),
            text("{\(entry),\"mood\":0}", "mood: must be between 1 and 5"),
            text("{\(entry),\"energy\":true}", "energy: expected a number or null, got a boolean"),
            text("{\(entry),\"hrv\":0.5}", "hrv: must be between 1 and 300"),
            text("{\(health),\"restingHeartRate\":300}", "restingHeartRate: must be between 20 and 250"),
            text("{\(health),\"stepCount\":200001}", "stepCount: must be between 0 and 200000"),
            text("{\(health),\"stepCount\":12.5}", "stepCount: must be a whole number"),
            text("{\(health),\"sleepDuration\":90000}", "sleepDuration: must be between 0 and 86400"),
            text(
                "{\(entry),\"notes\":\"\(String(repeating: "x", count: 2001))\"}",
                "notes: must be at most 2000 characters"),
            text("{\(entry),\"notes\":[\"a\"]}", "notes: expected a string or null, got an array"),
            text("{\(entry),\"symptom_severity\":4}", "symptom_severity: not a field of a entry record"),
            text(
                "{\(entry)}",
                "entry: no field given; expected one of symptomSeverity, mood, energy, hrv, restingHeartRate, stepCount, sleepDuration, notes"
            ),
            text(
                "{\(health),\"symptomSeverity\":4}",
                "symptomSeverity: a health record cannot set a field only the user writes"),
            text(
                "{\(health),\"hrv\":null}",
                "health: no reading given; expected one of hrv, restingHeartRate, stepCount, sleepDuration"),
            // Other record types
            text(
                #"{"type":"user","user":"bob","timeZone":"CET+1"}"#,
                "timeZone: not an IANA time zone name such as Europe/Berlin or America/New_York"),
            text(
                #"{"type":"settings","user":"bob","reminderHour":24}"#, "reminderHour: must be an hour between 0 and 23"
            ),
            text(
                #"{"type":"settings","user":"bob","engagementNotifications":"no"}"#,
                "engagementNotifications: expected true or false or null, got a string"),
            text(
                #"{"type":"watch","user":"bob","kind":"symptomLog","payload":"{}"}"#,
                "payload: expected an object, got a string"),
            text(
                #"{"type":"watch","user":"bob","kind":"symptomLog","payload":{"day":"2026-03-02","symptomSeverity":12}}"#,
                "payload.symptomSeverity: must be between 0 and 10"),
            text(
                #"{"type":"watch","user":"bob","kind":"healthCheckIn","payload":{"day":"2026-03-02","symptomSeverity":2}}"#,
                "payload.symptomSeverity: not a field of a healthCheckIn item"),
            text(#"{"type":"watch","user":"bob","payload":{}}"#, "kind: missing"),
            text(
                #"{"type":"watch","user":"bob","kind":"x","payload":{},"enqueuedAt":"2026-02-30T08:00:00Z"}"#,
                "enqueuedAt: expected an ISO 8601 time such as 2026-03-01T08:00:00Z"),
            // Bytes that are not text
            (
                [UInt8](#"{"type":"entry","user":"bob","day":"2026-03-02","notes":""#.utf8) + [0xC3, 0x28]
                    + [UInt8](#""}"#.utf8),
                "json: invalid UTF-8 at column 58"
            ),
            ([0xFF, 0xFE] + [UInt8](#"{"type":"entry"}"#.utf8), "json: unexpected character at column 1"),
            // Far too long
            (
                Array("{\(entry),\"notes\":\"".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 10 << 20)
                    + Array("\"}".utf8),
                "line: longer than the 1 MiB limit"
            ),
        ]
    }()

    /// Text that looks like SQL is data: stored and read back byte for byte.
    static let sqlLooking = [
        "",
        "'); DROP TABLE daily_logs; --",
        "Robert'); DELETE FROM users WHERE ('1'='1",
        "\" OR 1=1 --",
        "x'||(SELECT group_concat(id) FROM users)||'",
    ]

    @Test(
        "each bad line is reported with its line, field and problem, and every good line around it lands",
        arguments: TestBackend.all)
    func corpus(backend: TestBackend) async throws {
        #expect(Self.corpus.count >= 40)
        var input: [UInt8] = []
        var expected: [String] = []
        var lineNumber = 0
        for (index, bad) in Self.corpus.enumerated() {
            let good =
                #"{"type":"entry","user":"ada","day":"\#(Day.literal("2026-01-01").adding(days: index))","symptomSeverity":3}"#
            input += Array(good.utf8) + [0x0A]
            lineNumber += 1
            input += bad.line + [0x0A]
            lineNumber += 1
            expected.append("line \(lineNumber): \(bad.message)")
        }
        let database = TestDatabase(backend)
        let pipeline = try await database.open()
        let messages = Locked<[String]>([])
        let report = try await pipeline.ingestJSONLines(bytes: input) { error in
            messages.withLock { $0.append(error.description) }
        }
        let reported = messages.withLock { $0 }
        #expect(reported.count == expected.count)
        for (actual, wanted) in zip(reported, expected) {
            #expect(actual == wanted)
        }
        #expect(report.rejected == Self.corpus.count)
        let stored = try await pipeline.dailyLogs(user: .literal("ada"))
        #expect(stored.count == Self.corpus.count)
        #expect(stored.allSatisfy { $0.symptomSeverity == 3 })
        // Bob's bad lines stored nothing.
        #expect(try await pipeline.dailyLogs(user: .literal("bob")).isEmpty)
    }

    @Test("with strict, one bad line stores nothing at all", arguments: TestBackend.all)
    func strictIsAllOrNothing(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let pipeline = try await database.open()
        let input = """
            {"type":"entry","user":"ada","day":"2026-03-01","symptomSeverity":3}
            {"type":"entry","user":"ada","day":"2026-03-02","symptomSeverity":33}
            {"type":"entry","user":"ada","day":"2026-03-03","symptomSeverity":5}
            """
        let messages = Locked<[String]>([])
        let report = try await pipeline.ingestJSONLines(bytes: Array(input.utf8), strict: true) { error in
            messages.withLock { $0.append(error.description) }
        }
        #expect(!report.committed)
        #expect(messages.withLock { $0 } == ["line 2: symptomSeverity: must be between 0 and 10"])
        #expect(try await pipeline.dailyLogs(user: .literal("ada")).isEmpty)
        #expect(try await pipeline.users().isEmpty)
    }

    @Test("text that looks like SQL, and empty text, is stored verbatim", arguments: TestBackend.all, sqlLooking)
    func sqlLookingText(backend: TestBackend, text: String) async throws {
        let database = TestDatabase(backend)
        let pipeline = try await database.open()
        var object = JSONObject()
        object["type"] = .string("entry")
        object["user"] = .string("ada")
        object["day"] = .string("2026-03-01")
        object["notes"] = .string(text)
        let report = try await pipeline.ingestJSONLines(bytes: Array(object.jsonText.utf8)) { _ in }
        #expect(report.rejected == 0)
        let log = try await pipeline.dailyLog(user: .literal("ada"), day: .literal("2026-03-01"))
        #expect(log?.notes == text)
        #expect(try await pipeline.summary().users == 1)
    }
}

extension Pipeline {
    /// Ingests `bytes` held in memory.
    func ingestJSONLines(
        bytes: [UInt8], strict: Bool = false, onRejected: @escaping @Sendable (IngestionError) -> Void
    ) async throws -> IngestReport {
        try await ingestJSONLines(from: .bytes(bytes), strict: strict, onRejected: onRejected)
    }
}
