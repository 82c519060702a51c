import Domain
import Foundation
import Storage
import TestSupport
import Testing

/// Input is printed only escaped and cut short: a key, a watch kind or a record type from input
/// cannot forge a line of cron mail, drive the terminal, carry a value into a log, or make a line
/// of a megabyte.
@Suite("Hostile input in output")
struct HostileInputTests {
    static let now = "2026-03-15T12:00:00Z"

    /// Every line of `output` is at most `maximumLine` characters, and no character of it is a raw
    /// control or other non-printing character (the line feeds between lines aside).
    static func expectPrintable(
        _ output: String, maximumLine: Int = 300, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            #expect(line.unicodeScalars.count <= maximumLine, "a line of \(line.count)", sourceLocation: sourceLocation)
            let raw = line.unicodeScalars.filter { !PrintableExcerpt.printsAsItself($0) }
            #expect(
                raw.isEmpty, "raw \(raw.map { "U+\(String($0.value, radix: 16))" })", sourceLocation: sourceLocation)
        }
    }

    @Test("unknown keys with line breaks, escape sequences, values or a megabyte are reported one line each")
    func unknownKeys() async throws {
        let directory = TemporaryDirectory()
        let db = directory.path("p.sqlite")
        let bigKey = String(repeating: "k", count: 900_000)
        let input = [
            #"{"type":"entry","user":"alice","day":"2026-03-01","x\nline 99: mood: forged":1}"#,
            #"{"type":"entry","user":"alice","day":"2026-03-01","\u001b[2J\u001b]0;owned\u0007":1}"#,
            #"{"type":"entry","user":"alice","day":"2026-03-01",""# + bigKey + #"":1}"#,
            #"{"type":"health","user":"alice","day":"2026-03-01","hrv 123.456":1}"#,
            #"{"type":"health","user":"alice","day":"2026-03-01","hrv123.456":1,"steps_9000":1}"#,
            #"{"type":"watch","user":"alice","kind":"symptomLog","payload":{"day":"2026-03-01","\u009b31m":1}}"#,
            #"{"type":"entry","user":"alice","\u202ex":1,"\u202ex":2}"#,
            #"{"type":"entry","user":"alice","day":"2026-03-01","sleep_quality\u2028line 98: forged":1}"#,
            #"{"type":"entry","user":"alice","day":"2026-03-01","mood":3}"#,
        ].joined(separator: "\n")
        let run = await runCLI(["ingest", "-", "--db", db, "--now", Self.now], stdin: input)
        #expect(run.status == 65)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        // One line per rejected record and the summary: nothing forged in between.
        #expect(lines.count == 9, "\(lines)")
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("line ") })
        #expect(lines.dropLast().enumerated().allSatisfy { $0.element.hasPrefix("line \($0.offset + 1): ") })
        #expect(lines.last == "stored 1 of 9 records (1 entry); rejected 8")
        #expect(
            !run.stderr.contains("forged") && !run.stderr.contains("owned") && !run.stderr.contains("123.456")
                && !run.stderr.contains("9000"))
        Self.expectPrintable(run.stderr)
        // A key that could be a misspelt field is still named, so the sender can fix it.
        let named = #"{"type":"entry","user":"alice","day":"2026-03-01","symptom_severity":1}"#
        let misspelt = await runCLI(["ingest", "-", "--db", db, "--now", Self.now], stdin: named)
        #expect(misspelt.stderr.contains("line 1: symptom_severity: not a field of a entry record"))
        #expect(lines[3] == "line 4: key 4: not a field of a health record")
        #expect(lines[4] == "line 5: key 4: not a field of a health record")
    }

    @Test(
        "a command line with line breaks or escape sequences is echoed escaped in usage errors",
        arguments: [
            ["st\natus"], ["status", "--bogus\u{1B}[31m"], ["status", "--now", "2026\u{1B}[0m\nline 2: forged"],
            ["status", "--db", "/tmp/x.sqlite", "extra\u{07}"], ["ingest", String(repeating: "\u{1B}", count: 5000)],
        ])
    func commandLine(arguments: [String]) async {
        let result = await runCLI(arguments)
        #expect(result.status != 0)
        Self.expectPrintable(result.stderr)
        #expect(!result.stderr.contains("line 2: forged\n"))
    }

    @Test("unknown watch kinds are escaped and cut short in status text, and exact in status JSON")
    func watchKinds() async throws {
        let directory = TemporaryDirectory()
        let db = directory.path("p.sqlite")
        let kinds = [
            "\u{1B}[2J\nline 1: forged\u{202E}",
            "x\u{85}y\u{7F}",
            String(repeating: "\u{7}", count: 64),
        ]
        var input: [String] = []
        for kind in kinds {
            var object = JSONObject()
            object["type"] = .string("watch")
            object["user"] = .string("alice")
            object["kind"] = .string(kind)
            object["payload"] = .object([:])
            input.append(object.jsonText)
        }
        let ingest = await runCLI(["ingest", "-", "--db", db, "--now", Self.now], stdin: input.joined(separator: "\n"))
        #expect(ingest.status == 0, "\(ingest.stderr)")

        let text = await runCLI(["status", "--db", db, "--now", Self.now])
        #expect(text.status == 0)
        Self.expectPrintable(text.stdout)
        #expect(!text.stdout.split(separator: "\n").contains { $0.hasPrefix("line 1") })
        #expect(text.stdout.contains(#"\u{1b}[2J\u{a}line 1: forged\u{202e}: 1 queued item"#))
        #expect(text.stdout.contains(#"x\u{85}y\u{7f}: 1 queued item"#))
        #expect(text.stdout.contains(String(repeating: #"\u{7}"#, count: 10) + "…: 1 queued item"))

        let json = await runCLI(["status", "--db", db, "--now", Self.now, "--json"])
        #expect(json.status == 0)
        Self.expectPrintable(json.stdout, maximumLine: 10_000)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let listed = try #require(decoded?["unknownWatchKinds"] as? [String])
        #expect(Set(listed) == Set(kinds))
    }

    @Test("record types of an Apple Health export are escaped and cut short in the import summary")
    func appleHealthTypes() async throws {
        let directory = TemporaryDirectory()
        let db = directory.path("p.sqlite")
        let export = directory.path("export.xml")
        let long = String(repeating: "T", count: 5_000)
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <Record type="Evil&#10;line 2: forged&#9;&#x202E;" value="1" startDate="2026-03-01 08:00:00 +0000" endDate="2026-03-01 08:00:00 +0000"/>
             <Record type="\(long)" value="1" startDate="2026-03-01 08:00:00 +0000" endDate="2026-03-01 08:00:00 +0000"/>
            </HealthData>
            """
        try Data(xml.utf8).write(to: URL(fileURLWithPath: export))
        let run = await runCLI([
            "ingest", "--format", "apple-health", export, "--user", "nick", "--db", db, "--now", Self.now,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        Self.expectPrintable(run.stderr)
        #expect(!run.stderr.split(separator: "\n").contains { $0.hasPrefix("line 2") })
        #expect(run.stderr.contains(#"1 Evil\u{a}line 2: forged\u{9}\u{202e}"#))
        #expect(run.stderr.contains("1 " + String(repeating: "T", count: PrintableExcerpt.defaultLimit) + "…"))
    }

    @Test("an element name in a malformed export is cut short in the error")
    func appleHealthElementName() async throws {
        let directory = TemporaryDirectory()
        let db = directory.path("p.sqlite")
        let export = directory.path("export.xml")
        let long = String(repeating: "E", count: 100_000)
        try Data("<HealthData><\(long)></HealthData>".utf8).write(to: URL(fileURLWithPath: export))
        let run = await runCLI(["ingest", "--format", "apple-health", export, "--user", "nick", "--db", db])
        #expect(run.status == 65)
        #expect(run.stderr.contains("does not close the open <" + String(repeating: "E", count: 64) + "…>"))
        Self.expectPrintable(run.stderr)
    }
}
