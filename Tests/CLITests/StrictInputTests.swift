import Foundation
import TestSupport
import Testing

/// What a user sees when input is not what the formats allow: the exit status, one message naming
/// the place and the problem, printable whatever the input held, and nothing stored.
@Suite("Strict input from the command line")
struct StrictInputTests {
    static let now = "2026-03-15T12:00:00Z"
    static let controlRule = "XML allows no control character but tab, line feed and carriage return"

    struct DamagedExport: CustomTestStringConvertible, Sendable {
        var label: String
        var bytes: [UInt8]
        var message: String
        var testDescription: String { label }
    }

    static let record =
        "<Record type=\"HKQuantityTypeIdentifierStepCount\" value=\"500\" startDate=\"2026-03-01 08:00:00 +0000\" "
        + "endDate=\"2026-03-01 09:00:00 +0000\""

    /// Each column is counted in the comment beside it (characters, 1-based).
    static let damaged: [DamagedExport] = [
        DamagedExport(  // ` <Record … sourceName="a` is 149 characters
            label: "a NUL byte in a value",
            bytes: Array("<HealthData>\n \(record) sourceName=\"a".utf8) + [0] + Array("\"/>\n</HealthData>\n".utf8),
            message: "line 2, column 150: a NUL byte in the value of sourceName; \(controlRule)"),
        DamagedExport(
            label: "an escape sequence in a value",
            bytes: Array("<HealthData>\n \(record) sourceName=\"a\u{1B}]0;owned\u{7}\"/>\n</HealthData>\n".utf8),
            message: "line 2, column 150: the control character U+001B in the value of sourceName; \(controlRule)"),
        DamagedExport(  // ` <Rec` is 5 characters
            label: "invalid UTF-8 in an element name",
            bytes: Array("<HealthData>\n <Rec".utf8) + [0xC3, 0x28] + Array("ord/>\n</HealthData>\n".utf8),
            message: "line 2, column 6: invalid UTF-8 in an element name: an export.xml is UTF-8 text"),
        DamagedExport(
            label: "an unknown entity between tags",
            bytes: Array("<HealthData>\n \(record)/>\n &bogus;\n</HealthData>\n".utf8),
            message: "line 3, column 2: unknown entity or invalid character reference; an export uses only &lt; "
                + "&gt; &amp; &quot; &apos; and &#…; references"),
    ]

    @Test(
        "an export that is not text fails with status 65, its line and column, and stores nothing", arguments: damaged)
    func damagedExport(_ example: DamagedExport) async throws {
        let directory = TemporaryDirectory()
        let db = directory.path("p.sqlite")
        let export = directory.path("export.xml")
        try Data(example.bytes).write(to: URL(fileURLWithPath: export))
        let run = await runCLI([
            "ingest", "--format", "apple-health", export, "--user", "nick", "--db", db, "--now", Self.now,
        ])
        #expect(run.status == 65)
        #expect(run.stderr.contains(example.message), "\(run.stderr)")
        #expect(!run.stderr.contains("owned"))
        HostileInputTests.expectPrintable(run.stderr)
        let rows = await runCLI(["export", "--user", "nick", "--db", db])
        #expect(rows.stdout.isEmpty)
    }

    @Test("a JSON Lines file starting with a byte order mark is read, and a mark on a later line is named")
    func byteOrderMark() async throws {
        let directory = TemporaryDirectory()
        let db = directory.path("p.sqlite")
        let input =
            "\u{FEFF}" + #"{"type":"entry","user":"alice","day":"2026-03-01","mood":3}"# + "\n\u{FEFF}"
            + #"{"type":"entry","user":"alice","day":"2026-03-02","mood":4}"#
        let run = await runCLI(["ingest", "-", "--db", db, "--now", Self.now], stdin: input)
        #expect(run.status == 65)
        #expect(
            run.stderr.contains(
                "line 2: json: unexpected byte order mark (U+FEFF); only the start of the input may have one "
                    + "at column 1"), "\(run.stderr)")
        let rows = await runCLI(["export", "--user", "alice", "--db", db])
        #expect(rows.stdout.contains(#""day":"2026-03-01","mood":3"#), "\(rows.stdout)")
        #expect(!rows.stdout.contains("2026-03-02"))
    }

    @Test("1e-400 is not taken for the whole number 0")
    func tinyNumber() async throws {
        let directory = TemporaryDirectory()
        let db = directory.path("p.sqlite")
        let input = #"{"type":"entry","user":"alice","day":"2026-03-01","stepCount":1e-400}"#
        let run = await runCLI(["ingest", "-", "--db", db, "--now", Self.now], stdin: input)
        #expect(run.status == 65)
        #expect(run.stderr.contains("line 1: json: number is too small"), "\(run.stderr)")
        #expect(run.stderr.contains("not a whole number at column 63"))
        let rows = await runCLI(["export", "--user", "alice", "--db", db])
        #expect(!rows.stdout.contains("stepCount"))
    }
}
