import Foundation
import TestSupport
import Testing

@testable import PipelineCLI

/// Long commands on a terminal show how far they are (done of how much, the rate, the time left) on stderr,
/// and retrain, evaluate and copy end with one line saying what they did; under cron, with no terminal,
/// the same commands print nothing. The terminal is a real pseudo-terminal (util-linux's `script`), the
/// pipe a real pipe.
@Suite("Progress on a terminal, silence in a pipe", .timeLimit(.minutes(10)))
struct ProgressTests {
    static let now = "2026-03-07T21:00:00Z"

    /// Runs the built `pipeline` with `arguments` in a pseudo-terminal of its own (`script -qefc`, the
    /// typescript thrown away), and returns everything the terminal received and the exit status.
    static func onTerminal(_ arguments: [String], input: String? = nil) throws -> (status: Int32, screen: String) {
        let quoted = ([try pipelineBinary().path] + arguments).map {
            "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        let command = quoted.joined(separator: " ") + (input.map { " < '\($0)'" } ?? "")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qefc", command, "/dev/null"]
        process.environment = ["PATH": "/usr/bin:/bin", "TERM": "xterm"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// A cohort in a new SQLite database, and its JSON Lines in `cohort.jsonl` beside it.
    static func cohort(users: Int = 30, days: Int = 70) async throws -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        let cohort = await runCLI(["generate", "--users", "\(users)", "--days", "\(days)", "--seed", "3", "--now", now])
        try Data(cohort.stdout.utf8).write(to: URL(fileURLWithPath: directory.path("cohort.jsonl")))
        return directory
    }

    @Test("ingest, retrain, evaluate and copy show progress and end with a summary on a terminal")
    func terminal() async throws {
        let directory = try await Self.cohort()
        let db = directory.path("p.sqlite")
        let ingest = try Self.onTerminal(["ingest", directory.path("cohort.jsonl"), "--db", db, "--now", Self.now])
        #expect(ingest.status == 0, "\(ingest.screen)")
        #expect(ingest.screen.contains("\u{1B}[Kingesting: "), "\(ingest.screen)")
        #expect(ingest.screen.contains(" MB (") && ingest.screen.contains("stored "), "\(ingest.screen)")

        let retrain = try Self.onTerminal(["retrain", "--db", db, "--now", Self.now, "--jobs", "1"])
        #expect(retrain.status == 0, "\(retrain.screen)")
        // Drawn in place: a carriage return and an erased line before each drawing, none left at the end.
        let drawings = retrain.screen.components(separatedBy: "\r\u{1B}[K").dropFirst()
        #expect(drawings.contains { $0.hasPrefix("retraining: 0/30 users (0%)") }, "\(retrain.screen)")
        #expect(
            drawings.contains {
                $0.range(of: #"^retraining: \d+/30 users \(\d+%\)"#, options: .regularExpression) != nil
            })
        let last = try #require(drawings.last)
        #expect(
            last.range(
                of: #"^retrained 30 users in [0-9.]+ s \([0-9.,]+ users/s\): 30 succeeded\r?\n$"#,
                options: .regularExpression) != nil, "\(last)")

        let evaluate = try Self.onTerminal(["evaluate", "--days", "3", "--db", db, "--now", Self.now, "--jobs", "1"])
        #expect(evaluate.status == 0, "\(evaluate.screen)")
        #expect(evaluate.screen.contains("\u{1B}[Kevaluating: 0/"), "\(evaluate.screen)")
        #expect(
            evaluate.screen.range(
                of: #"evaluated 3 days for 30 users in [0-9.]+ s: [0-9,]+ forecasts scored"#,
                options: .regularExpression) != nil, "\(evaluate.screen)")

        let copy = try Self.onTerminal([
            "copy", "--from", db, "--to", directory.path("copy.sqlite"), "--page-size", "500",
        ])
        #expect(copy.status == 0, "\(copy.screen)")
        // The total is counted first, and is the number of rows the summary says were copied.
        let copied = try #require(copy.screen.firstMatch(of: /copied ([0-9,]+) rows of \d+ tables in [0-9.]+ s/))
        #expect(copy.screen.contains("\u{1B}[Kcopying: 0/\(copied.1) rows (0%)"), "\(copy.screen)")
    }

    @Test("the same commands in a pipe, as under cron, print nothing at all")
    func pipe() async throws {
        let directory = try await Self.cohort()
        let db = directory.path("p.sqlite")
        let input = try String(contentsOfFile: directory.path("cohort.jsonl"), encoding: .utf8)
        let runs = [
            try await runBinary(["ingest", "-", "--db", db, "--now", Self.now], stdin: input),
            try await runBinary(["retrain", "--db", db, "--now", Self.now, "--jobs", "1"]),
            try await runBinary(["run", "--db", db, "--now", Self.now, "--jobs", "1"]),
        ]
        for run in runs {
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.isEmpty && run.stderr.isEmpty, "\(run.stdout)\(run.stderr)")
        }
        // evaluate and copy print their results on stdout, and nothing on stderr.
        let evaluate = try await runBinary(["evaluate", "--days", "3", "--db", db, "--now", Self.now, "--jobs", "1"])
        #expect(evaluate.status == 0 && evaluate.stderr.isEmpty, "\(evaluate.stderr)")
        let copy = try await runBinary(["copy", "--from", db, "--to", directory.path("copy.sqlite")])
        #expect(copy.status == 0 && copy.stderr.isEmpty, "\(copy.stderr)")
        #expect(!copy.stdout.contains("\u{1B}") && !evaluate.stdout.contains("\u{1B}"))
    }

    @Test("a progress line says done of total, the percentage, the rate and the time left")
    func line() throws {
        let io = CommandIO(stdin: InputSource(text: ""), stdout: .memory(), stderr: .memory(isTerminal: true))
        let progress = try #require(ProgressLine(io, label: "retraining", unit: .users))
        #expect(
            progress.text(done: 250, total: 1_000, detail: "", elapsed: .seconds(5))
                == "retraining: 250/1,000 users (25%), 50 users/s, 15 s left")
        #expect(progress.text(done: 0, total: 1_000, detail: "", elapsed: .zero) == "retraining: 0/1,000 users (0%)")
        #expect(ProgressLine.duration(200) == "3 min 20 s")
        let bytes = try #require(ProgressLine(io, label: "ingesting", unit: .megabytes))
        #expect(
            bytes.text(done: 52_000_000, total: 104_000_000, detail: "", elapsed: .seconds(2))
                == "ingesting: 52.0/104.0 MB (50%), 26 MB/s, 2 s left")
        let piped = CommandIO(stdin: InputSource(text: ""), stdout: .memory(), stderr: .memory())
        #expect(ProgressLine(piped, label: "retraining", unit: .users) == nil)
    }

    @Test("evaluate says so when the database holds fewer days than the walk asked for")
    func shortfall() async throws {
        let directory = TemporaryDirectory()
        let db = directory.path("p.sqlite")
        let lines = (1...2).map { back in
            #"{"type":"entry","user":"ada","day":"2026-03-0\#(7 - back)","symptomSeverity":\#(back + 2)}"#
        }
        _ = await runCLI(["ingest", "-", "--db", db, "--now", Self.now], stdin: lines.joined(separator: "\n") + "\n")
        let run = await runCLI(["evaluate", "--days", "7", "--db", db, "--now", Self.now])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains("warning: only 1 of the 7 days walked had a forecast to score")
                || run.stderr.contains("warning: no forecast could be scored in the 7 days walked"), "\(run.stderr)")
    }
}
