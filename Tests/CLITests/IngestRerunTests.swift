import Domain
import Foundation
import Glibc
import PipelineKit
import Storage
import TestSupport
import Testing

/// Re-running an ingestion is the natural recovery after a crash: an ingestion killed halfway and
/// run again over its whole input leaves every table as one uninterrupted run does.
@Suite("Ingestion killed and run again", .timeLimit(.minutes(10)))
struct IngestRerunTests {
    static let now = "2026-03-15T12:00:00Z"

    /// A cohort's logs with watch items of known and unknown kinds between them.
    static func input() -> [String] {
        let generator = CohortGenerator(users: 12, days: 30, seed: 9, now: Date(iso: now))
        var lines = generator.jsonLines.split(separator: "\n").map(String.init)
        for user in 1...12 {
            let id = String(format: "user-%05d", user)
            lines.insert(
                #"{"type":"watch","user":"\#(id)","kind":"stepsBurst","payload":{"steps":\#(user * 100),"at":"2026-03-14T08:00:00Z"}}"#,
                at: lines.count * user / 13)
            lines.insert(
                #"{"type":"watch","user":"\#(id)","kind":"symptomLog","payload":{"day":"2026-03-14","symptomSeverity":\#(user % 11)}}"#,
                at: lines.count * user / 13 + 1)
            lines.append(#"{"type":"watch","user":"\#(id)","kind":"heartNote","payload":{"note":"n\#(user)"}}"#)
        }
        return lines
    }

    /// Every row of every table, with the watch queue's ids left out: a run again gives the items
    /// the first run drained new ids, which is all that may differ.
    static func contents(_ database: TestDatabase) async throws -> [String: [[CopyValue]]] {
        let rows = try await copyRows(of: Store(path: database.path))
        var contents: [String: [[CopyValue]]] = [:]
        for (table, tableRows) in rows {
            let dropped = Set(
                table == .watchItems ? ["id"] : table == .watchDeadLetters ? ["id", "requeued_as"] : [])
            let kept = table.columns.indices.filter { !dropped.contains(table.columns[$0].name) }
            contents[table.name] = tableRows.map { row in kept.map { row[$0] } }
                .sorted { "\($0)" < "\($1)" }
        }
        return contents
    }

    @Test("killed after half its input and run again over all of it: every table as after one run")
    func killedAndRunAgain() async throws {
        let lines = Self.input()
        let folder = TemporaryDirectory("rerun")
        let file = folder.path("input.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))

        let once = TestDatabase(now: Date(iso: Self.now))
        let whole = try await runBinary(["ingest", "--db", once.path, "--now", Self.now, file])
        #expect(whole.status == 0, "\(whole.stderr)")

        let twice = TestDatabase(now: Date(iso: Self.now))
        let half = lines.count / 2
        let child = try ChildProcess.start(
            ["ingest", "--db", twice.path, "--now", Self.now, "-"], environment: ["PIPELINE_LOG": "info"],
            feedsInput: true)
        try child.send(lines.prefix(half).joined(separator: "\n") + "\n")
        #expect(await child.waitForOutput(containing: "\(half) records read"), "\(child.errorOutput)")
        kill(child.identifier, SIGKILL)
        #expect(await child.waitForExit() == .signal(SIGKILL))
        let again = try await runBinary(["ingest", "--db", twice.path, "--now", Self.now, file])
        #expect(again.status == 0, "\(again.stderr)")

        let expected = try await Self.contents(once)
        let actual = try await Self.contents(twice)
        #expect(!(expected["watch_items"] ?? []).isEmpty, "unknown kinds stay queued")
        for table in expected.keys.sorted() {
            #expect(actual[table] == expected[table], "\(table)")
        }

        // A third run changes nothing either.
        _ = try await runBinary(["ingest", "--db", twice.path, "--now", Self.now, file])
        #expect(try await Self.contents(twice) == expected)
    }
}

/// A refused input used to leave an empty database where there was none: a mistyped --db with a bad file
/// then looked like a database with nothing in it.
@Suite("An input refused as a whole creates no database")
struct RefusedInputTests {
    @Test("ingest --strict with a bad line, or input whose every line is bad, leaves no file where there was none")
    func noDatabaseLeft() async throws {
        let directory = TemporaryDirectory()
        let good = #"{"type":"entry","user":"ada","day":"2026-03-14","mood":3}"#
        let bad = #"{"type":"entry","user":"ada","day":"2026-03-14","mood":9}"#
        for (arguments, input) in [(["--strict"], good + "\n" + bad + "\n"), ([], bad + "\n")] {
            let db = directory.path("new.sqlite")
            let run = await runCLI(
                ["ingest", "-", "--db", db, "--now", "2026-03-15T12:00:00Z"] + arguments, stdin: input)
            #expect(run.status == 65, "\(run.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty, "\(arguments)")
        }
        // Into an existing database, a refused input leaves it as it was.
        let db = directory.path("p.sqlite")
        #expect(await runCLI(["init", "--db", db]).status == 0)
        let run = await runCLI(["ingest", "-", "--db", db, "--strict"], stdin: bad + "\n")
        #expect(run.status == 65)
        #expect(FileManager.default.fileExists(atPath: db))
    }
}
