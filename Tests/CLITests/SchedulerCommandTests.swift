import Domain
import Foundation
import PipelineKit
import Scheduling
import Storage
import TestSupport
import Testing

@testable import PipelineCLI

/// The scheduler's commands, run in-process on a database the test prepares through the library.
@Suite("Scheduler commands", .timeLimit(.minutes(10)))
struct SchedulerCommandTests {
    static let start = "2026-03-15T12:00:00Z"

    /// A database with users `ids` (UTC).
    static func database(users ids: [String]) async throws -> (TestDatabase, Pipeline) {
        let database = TestDatabase(now: Date(iso: start))
        return (database, try await database.open(users: ids))
    }

    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init)
    }

    /// The objects of JSON Lines output.
    static func objects(_ text: String) throws -> [[String: Any]] {
        try lines(text).map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test("pipeline run with nothing due exits 0 and prints nothing")
    func nothingDue() async throws {
        let (database, _) = try await Self.database(users: [])
        let result = await runCLI(["run", "--db", database.path, "--now", Self.start])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.isEmpty)
    }

    @Test("pipeline run runs the refresh tasks due at --now and reports each run with --json")
    func runAtNow() async throws {
        let (database, _) = try await Self.database(users: ["ada"])
        let result = await runCLI([
            "run", "--db", database.path, "--now", "2026-03-15T13:30:00Z", "--json", "--jobs", "1",
        ])
        // ml-retrain is due too, but runs in `pipeline retrain` launches.
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try Self.objects(result.stdout).first)
        let runs = try #require(report["runs"] as? [[String: Any]])
        #expect(runs.compactMap { $0["identifier"] as? String } == ["health-refresh"])
        #expect(runs.allSatisfy { $0["startedAt"] as? String == "2026-03-15T13:30:00Z" })
        #expect(report["startedChains"] as? Int == 4)

        // The next launch at the same instant has nothing due.
        let again = await runCLI(["run", "--db", database.path, "--now", "2026-03-15T13:30:00Z"])
        #expect(again.status == 0)
        #expect(again.stdout.isEmpty && again.stderr.isEmpty)
    }

    @Test("pipeline history --json prints one object per run with exactly the documented fields")
    func historyJSON() async throws {
        let (database, _) = try await Self.database(users: ["ada", "bob"])
        _ = await runCLI(["run", "--db", database.path, "--now", Self.start, "--jobs", "1"])
        _ = await runCLI(["retrain", "--db", database.path, "--now", Self.start, "--jobs", "1"])
        let all = try Self.objects(await runCLI(["history", "--db", database.path, "--json"]).stdout)
        #expect(all.count == 4)
        for object in all {
            #expect(
                Set(object.keys) == ["identifier", "user", "startedAt", "finishedAt", "outcome", "reason", "periods"])
        }
        let result = await runCLI([
            "history", "--db", database.path, "--json", "--user", "bob", "--identifier", "health-refresh",
        ])
        #expect(result.status == 0)
        let runs = try Self.objects(result.stdout)
        #expect(runs.count == 1)
        #expect(runs.first?["user"] as? String == "bob")
        #expect(runs.first?["outcome"] as? String == "success")
        #expect(runs.first?["reason"] as? String == "applied 0 watch items")
        #expect(runs.first?["finishedAt"] as? String == Self.start)

        let text = await runCLI(["history", "--db", database.path, "--identifier", "ml-retrain"])
        let lines = Self.lines(text.stdout)
        #expect(lines.count == 3)
        #expect(lines.first?.hasPrefix("started               task        user  outcome  periods  reason") == true)
        #expect(
            lines.dropFirst().first?.hasPrefix(
                "2026-03-15T12:00:00Z  ml-retrain  ada   success           serving: a combination of smoothing (0.30) "
                    + "1.00 (the cohort's weights: no scored day in the last 84 days)") == true, "\(text.stdout)")
    }

    @Test("pipeline status shows the chains never started, then none once a launch ran")
    func status() async throws {
        let (database, pipeline) = try await Self.database(users: ["ada"])
        try await pipeline.store.enqueue(
            WatchSubmission(
                user: .literal("ada"), kind: "heartRateZone", payload: "{}", enqueuedAt: Date(iso: Self.start)))
        let before = await runCLI(["status", "--db", database.path, "--json", "--now", Self.start])
        #expect(before.status == 0)
        let object = try #require(try Self.objects(before.stdout).first)
        let diagnostics = try #require(object["diagnostics"] as? [String: Any])
        let never = try #require(diagnostics["neverSubmitted"] as? [[String: Any]])
        #expect(Set(never.compactMap { $0["identifier"] as? String }) == Set(PipelineTasks.identifiers.map(\.rawValue)))
        #expect((diagnostics["unknownWatchKinds"] as? [String: Int]) == ["heartRateZone": 1])
        #expect(object["healthy"] as? Bool == false)

        let text = await runCLI(["status", "--db", database.path, "--now", Self.start])
        #expect(text.stdout.contains("registered but never submitted (4):"))
        #expect(text.stdout.contains("heartRateZone: 1 queued item"))

        _ = await runCLI(["run", "--db", database.path, "--now", Self.start])
        let after = await runCLI(["status", "--db", database.path, "--now", Self.start])
        #expect(!after.stdout.contains("never submitted"))
        #expect(after.stdout.contains("health-refresh"))
        #expect(after.stdout.contains("last success 2026-03-15T12:00:00Z"))
    }

    @Test("pipeline retrain checks --budget and --user before launching")
    func retrainArguments() async throws {
        let (database, _) = try await Self.database(users: ["ada"])
        let badBudget = await runCLI(["retrain", "--db", database.path, "--budget", "soon"])
        #expect(badBudget.status == 64)
        #expect(badBudget.stderr.hasPrefix("Error: invalid value 'soon' for '--budget <duration>'"))
        let unknown = await runCLI(["retrain", "--db", database.path, "--user", "zed"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no user 'zed'"))
        // Only ml-retrain runs, and only for the user asked for.
        let result = await runCLI([
            "retrain", "--db", database.path, "--user", "ada", "--budget", "90s", "--json", "--now", Self.start,
        ])
        let runs = try #require(try Self.objects(result.stdout).first?["runs"] as? [[String: Any]])
        #expect(runs.map { $0["identifier"] as? String } == ["ml-retrain"])
    }

    @Test(
        "durations for --budget",
        arguments: [
            ("90", 90.0), ("90s", 90), ("15m", 900), ("15min", 900), ("1.5h", 5400), ("500ms", 0.5),
        ])
    func budgets(text: String, seconds: Double) {
        #expect(OptionSpec.ValueType.seconds(in: text) == seconds)
    }

    @Test("durations that are not accepted", arguments: ["", "0", "-5s", "1d", "h", "1.5.2m", "ten"])
    func badBudgets(text: String) {
        #expect(OptionSpec.ValueType.seconds(in: text) == nil)
    }

    @Test("pipeline outbox lists waiting messages and --ack acknowledges them; an unknown id exits 65")
    func outbox() async throws {
        let (database, pipeline) = try await Self.database(users: ["ada"])
        var ids: [Int64] = []
        for day in ["2026-03-14", "2026-03-15"] {
            let message = NewOutboxMessage(
                user: .literal("ada"), kind: OutboxKind.logReminder, day: .literal(day), body: "Log today")
            ids.append(try #require(try await pipeline.store.post(message)))
        }
        let listed = try Self.objects(await runCLI(["outbox", "--db", database.path, "--json"]).stdout)
        #expect(listed.map { $0["id"] as? Int } == ids.map { Int($0) })
        #expect(listed.first?["day"] as? String == "2026-03-14")
        #expect(listed.first?["kind"] as? String == "log-reminder")

        let ack = await runCLI(["outbox", "--db", database.path, "--ack", String(ids[0])])
        #expect(ack.status == 0)
        #expect(ack.stdout.isEmpty)
        let remaining = await runCLI(["outbox", "--db", database.path])
        #expect(
            Self.lines(remaining.stdout) == [
                "id  user  day         kind          message",
                String(repeating: " ", count: max(0, 2 - "\(ids[1])".count))
                    + "\(ids[1])  ada   2026-03-15  log-reminder  Log today",
            ], "\(remaining.stdout)")

        let unknown = await runCLI(["outbox", "--db", database.path, "--ack", String(ids[1]), "--ack", "999"])
        #expect(unknown.status == 65)
        #expect(unknown.stderr == "Error: --ack: no outbox message has id 999\n")
        #expect(await runCLI(["outbox", "--db", database.path]).stdout.isEmpty)
    }

    @Test("--metrics-file writes the run history as Prometheus text, replacing the file whole")
    func metricsFile() async throws {
        let (database, _) = try await Self.database(users: ["ada", "bob"])
        let folder = TemporaryDirectory("metrics")
        let path = folder.path("pipeline.prom")
        try Data("stale".utf8).write(to: URL(fileURLWithPath: path))
        _ = await runCLI(["retrain", "--db", database.path, "--now", Self.start])
        _ = await runCLI(["run", "--db", database.path, "--now", Self.start, "--metrics-file", path])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("# TYPE pipeline_task_runs_total counter\n"))
        #expect(text.contains(#"pipeline_task_runs_total{identifier="health-refresh",outcome="success"} 2"#))
        #expect(text.contains(#"pipeline_task_runs_total{identifier="ml-retrain",outcome="success"} 2"#))
        #expect(text.contains(#"pipeline_task_run_duration_seconds_count{identifier="health-refresh"} 2"#))
        let started = Date(iso: Self.start).timeIntervalSince1970
        #expect(
            text.contains(
                #"pipeline_task_last_success_timestamp_seconds{identifier="health-refresh"} \#(Int(started))"#))
        #expect(text.contains(#"pipeline_launch_runs{outcome="success"} 2"#))
        #expect(text.contains("pipeline_launch_duration_seconds "))
        #expect(text.hasSuffix("\n"))
        // Every sample line is `name{labels} value`, and only the target file is left in the folder.
        for line in Self.lines(text) where !line.hasPrefix("#") {
            #expect(line.split(separator: " ").count == 2, "\(line)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["pipeline.prom"])
    }
}
