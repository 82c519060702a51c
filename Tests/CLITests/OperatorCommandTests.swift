import Domain
import Foundation
import PipelineKit
import TestSupport
import Testing

@testable import Storage

/// The operator's commands end to end (issue 11, items 6–10): health checks a monitor can page on,
/// requests and dead letters to list and act on, and a `--db` that must exist.
@Suite("Operator commands", .timeLimit(.minutes(10)))
struct OperatorCommandTests {
    static let start = "2026-03-15T12:00:00Z"
    static let aWeekLater = "2026-03-22T12:00:00Z"

    static func database(_ backend: TestBackend, users ids: [String]) async throws -> TestDatabase {
        let database = TestDatabase(backend, now: Date(iso: start))
        _ = try await database.open(users: ids)
        return database
    }

    static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test(
        "a week without launches is unhealthy in status, --check, --json and the metrics file",
        arguments: TestBackend.all)
    func deadCron(backend: TestBackend) async throws {
        let database = try await Self.database(backend, users: ["ada"])
        let db = database.path
        #expect(await runCLI(["run", "--db", db, "--now", Self.start, "--jobs", "1"]).status == 0)

        let healthy = await runCLI(["status", "--check", "--db", db, "--now", Self.start])
        #expect(healthy.status == 0)
        #expect(healthy.stdout.isEmpty && healthy.stderr.isEmpty)

        let text = await runCLI(["status", "--db", db, "--now", Self.aWeekLater])
        #expect(text.status == 0)
        #expect(text.stdout.contains("last launch  2026-03-15T12:00:00Z by "))
        #expect(text.stdout.contains("  overdue (3):"))
        #expect(!text.stdout.contains("diagnostics:\n  none"))

        let check = await runCLI(["status", "--check", "--db", db, "--now", Self.aWeekLater])
        #expect(check.status == 1)
        #expect(check.stdout.isEmpty)
        #expect(check.stderr.contains("overdue: health-refresh: 1 request due since 2026-03-15T16:00:00Z"))
        #expect(check.stderr.contains("is cron running 'pipeline run'?"))
        // The retrain runs under its own command: the hint names that one.
        let retrain = check.stderr.split(separator: "\n").filter { $0.hasPrefix("overdue: ml-retrain") }
        #expect(retrain.count == 1 && retrain.allSatisfy { $0.hasSuffix("is cron running 'pipeline retrain'?") })

        let json = await runCLI(["status", "--json", "--db", db, "--now", Self.aWeekLater])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["healthy"] as? Bool == false)
        let lastLaunch = try #require(object["lastLaunch"] as? [String: Any])
        #expect(lastLaunch["at"] as? String == Self.start)
        let diagnostics = try #require(object["diagnostics"] as? [String: Any])
        let overdue = try #require(diagnostics["overdue"] as? [[String: Any]])
        #expect(
            Set(overdue.compactMap { $0["identifier"] as? String }) == [
                "health-refresh", "ml-retrain", "engagement-daily",
            ])

        let folder = TemporaryDirectory("metrics")
        let path = folder.path("pipeline.prom")
        #expect(await runCLI(["status", "--db", db, "--now", Self.aWeekLater, "--metrics-file", path]).status == 0)
        let metrics = try String(contentsOfFile: path, encoding: .utf8)
        let launched = Int(Date(iso: Self.start).timeIntervalSince1970)
        #expect(metrics.contains("pipeline_last_launch_timestamp_seconds \(launched)\n"))
        #expect(metrics.contains(#"pipeline_task_requests_overdue{identifier="health-refresh"} 1"#))
        #expect(metrics.contains(#"pipeline_task_requests_overdue{identifier="weekly-insight"} 0"#))
    }

    @Test(
        "requests lists by task, user and state; cancel stops a user's chain across launches; retry resumes it",
        arguments: TestBackend.all)
    func requestsCancelRetry(backend: TestBackend) async throws {
        let database = try await Self.database(backend, users: ["ada", "bob"])
        let db = database.path
        #expect(await runCLI(["run", "--db", db, "--now", Self.start, "--jobs", "1"]).status == 0)

        let all = try Self.objects(await runCLI(["requests", "--json", "--db", db, "--now", Self.start]).stdout)
        #expect(all.count == 8)
        let adas = try Self.objects(
            await runCLI([
                "requests", "--json", "--user", "ada", "--task", "engagement-daily", "--db", db, "--now", Self.start,
            ]).stdout)
        #expect(adas.count == 1)
        let reminder = try #require(adas.first)
        #expect(reminder["state"] as? String == "pending")
        #expect(reminder["attempts"] as? Double == 0)
        #expect(reminder["leaseOwner"] is NSNull)
        #expect(reminder["lastError"] is NSNull)
        let text = await runCLI([
            "requests", "--user", "ada", "--task", "engagement-daily", "--db", db, "--now", Self.start,
        ])
        let rows = text.stdout.split(separator: "\n")
        #expect(rows.first?.hasPrefix("id  task              user  state    due") == true, "\(text.stdout)")
        #expect(
            rows.dropFirst().first?.hasPrefix(" \(Int(reminder["id"] as! Double))  engagement-daily  ada   pending  ")
                == true, "\(text.stdout)")

        let cancel = await runCLI(
            ["requests", "cancel", "--user", "ada", "--task", "engagement-daily", "--json", "--db", db])
        #expect(cancel.status == 0)
        #expect(try Self.objects(cancel.stdout).map { $0["action"] as? String } == ["cancelled"])
        // The next launch does not start ada's reminders again.
        _ = await runCLI(["run", "--db", db, "--now", "2026-03-15T12:15:00Z", "--jobs", "1"])
        let cancelled = try Self.objects(
            await runCLI(["requests", "--json", "--state", "cancelled", "--db", db]).stdout)
        #expect(cancelled.map { $0["user"] as? String } == ["ada"])
        let pending = try Self.objects(
            await runCLI([
                "requests", "--json", "--user", "ada", "--task", "engagement-daily", "--state", "pending",
                "--db", db,
            ]).stdout)
        #expect(pending.isEmpty)
        // Cancelling is not a problem for status; an unknown id is reported with status 65.
        #expect(await runCLI(["status", "--check", "--db", db, "--now", "2026-03-15T12:15:00Z"]).status == 0)
        // A running request is left to finish: reported, status 75. (Bob's refresh is due at 16:00.)
        let later = "2026-03-15T16:01:00Z"
        let store = try Store(path: db, clock: FixedClock(Date(iso: later)))
        let claimed = try await store.claimTaskRequests(
            TaskClaim(
                owner: "worker-x", refreshLease: 600, processingLease: 600, isOnExternalPower: true,
                hasNetworkConnectivity: true, identifiers: ["health-refresh"], scope: "bob", limit: 1))
        let running = try #require(claimed.first?.request.id)
        let busy = await runCLI(["requests", "cancel", String(running), "--db", db, "--now", later])
        #expect(busy.status == 75)
        #expect(busy.stderr.contains("request \(running) is running; it was left to finish its run"))
        let listed = try Self.objects(
            await runCLI(["requests", "--json", "--state", "running", "--db", db, "--now", later]).stdout)
        #expect(listed.map { $0["leaseOwner"] as? String } == ["worker-x"])
        let unknown = await runCLI(["requests", "cancel", "99999", "--db", db])
        #expect(unknown.status == 65)
        #expect(unknown.stderr == "Error: no pending or running request has id 99999\n")

        let id = try #require(cancelled.first?["id"] as? Double)
        let retry = await runCLI(["requests", "retry", String(Int(id)), "--db", db, "--now", "2026-03-15T12:20:00Z"])
        #expect(retry.status == 0)
        #expect(retry.stdout == "retried \(Int(id))\n")
        let back = try Self.objects(
            await runCLI([
                "requests", "--json", "--user", "ada", "--task", "engagement-daily", "--db", db,
                "--now", "2026-03-15T12:20:00Z",
            ]).stdout)
        #expect(back.map { $0["state"] as? String } == ["due"])
        #expect(await runCLI(["requests", "bogus", "--db", db]).status == 64)
        #expect(await runCLI(["requests", "cancel", "--db", db]).status == 64)
    }

    @Test(
        "a request whose retries run out is discarded with its last error, flagged, and retried on request",
        arguments: TestBackend.all)
    func discardedThroughTheCommandLine(backend: TestBackend) async throws {
        let database = try await Self.database(backend, users: ["ada"])
        let db = database.path
        // A global request of a per-user task: its handler refuses it, every time. One attempt allowed.
        let store = try Store(path: db, clock: FixedClock(Date(iso: Self.start)))
        try await store.submit(
            NewTaskRequest(identifier: "health-refresh", scope: "", kind: .refresh, earliestBeginAt: nil),
            replacing: false)
        let run = await runCLI(["run", "--max-attempts", "1", "--jobs", "1", "--db", db, "--now", Self.start])
        #expect(run.status == 1)
        #expect(run.stderr.contains("discarded after 1 attempts"))
        let discarded = try Self.objects(
            await runCLI(["requests", "--json", "--state", "discarded", "--db", db, "--now", Self.start]).stdout)
        #expect(discarded.count == 1)
        #expect(discarded.first?["user"] is NSNull)
        #expect(discarded.first?["attempts"] as? Double == 1)
        #expect((discarded.first?["lastError"] as? String)?.contains("runs for a user") == true)
        let check = await runCLI(["status", "--check", "--db", db, "--now", Self.start])
        #expect(check.status == 1)
        #expect(check.stderr.contains("discarded: health-refresh: 1 request ran out of attempts"))

        let retry = await runCLI(["requests", "retry", "--json", "--db", db, "--now", Self.start])
        #expect(try Self.objects(retry.stdout).map { $0["action"] as? String } == ["retried"])
        #expect(
            try Self.objects(await runCLI(["requests", "--json", "--state", "discarded", "--db", db]).stdout).isEmpty)
    }

    @Test("dead-letters lists what failed too often and requeue puts it back in the queue", arguments: TestBackend.all)
    func deadLetters(backend: TestBackend) async throws {
        let database = try await Self.database(backend, users: ["ada"])
        let db = database.path
        let store = try Store(path: db, clock: FixedClock(Date(iso: Self.start)))
        let id = try await store.enqueue(
            WatchSubmission(
                user: .literal("ada"), kind: "symptomLog", payload: #"{"day":"2026-03-15"}"#,
                enqueuedAt: Date(iso: Self.start)))
        for _ in 0..<WatchItem.maxAttempts {
            try await store.recordFailure(watchItem: id, error: "symptomSeverity: missing")
        }
        let listed = await runCLI(["dead-letters", "--json", "--db", db])
        let letters = try Self.objects(listed.stdout)
        #expect(letters.count == 1)
        #expect(letters.first?["id"] as? Double == Double(id))
        #expect(letters.first?["lastError"] as? String == "symptomSeverity: missing")
        #expect(letters.first?["kind"] as? String == "symptomLog")
        #expect(await runCLI(["status", "--check", "--db", db, "--now", Self.start]).stderr.contains("dead letters"))

        let requeue = await runCLI(["dead-letters", "requeue", String(id), "--json", "--db", db, "--now", Self.start])
        #expect(requeue.status == 0)
        let item = try #require(try Self.objects(requeue.stdout).first?["watchItem"] as? Double)
        #expect(Int64(item) != id)
        #expect(try await store.allWatchItems(user: nil).map(\.id) == [Int64(item)])
        #expect(try await store.allWatchItems(user: nil).first?.attempts == 0)
        #expect(try Self.objects(await runCLI(["dead-letters", "--json", "--db", db]).stdout).isEmpty)
        let resolved = try Self.objects(await runCLI(["dead-letters", "--all", "--json", "--db", db]).stdout)
        #expect(resolved.first?["requeuedAs"] as? Double == item)
        // Requeued twice is not requeued again; and it fails into the dead letters a second time cleanly.
        #expect(await runCLI(["dead-letters", "requeue", String(id), "--db", db]).status == 65)
        for _ in 0..<WatchItem.maxAttempts {
            try await store.recordFailure(watchItem: Int64(item), error: "symptomSeverity: missing")
        }
        #expect(try Self.objects(await runCLI(["dead-letters", "--json", "--db", db]).stdout).count == 1)
    }

    @Test(
        "every reading command, run and retrain refuse a --db that does not exist, exit 78, and create nothing",
        arguments: TestBackend.all)
    func missingDatabase(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let db = database.path
        let commands: [[String]] = [
            ["status"], ["status", "--check"], ["export", "--user", "ada"], ["history"], ["model", "--user", "ada"],
            ["predict", "--user", "ada"], ["features", "--user", "ada"], ["outbox"], ["run"], ["retrain"],
            ["requests"], ["dead-letters"],
        ]
        for command in commands {
            let result = await runCLI(command + ["--db", db])
            #expect(result.status == (command == ["status", "--check"] ? 1 : 78), "\(command)")
            #expect(result.stderr.contains("there is no database at"), "\(command): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(command)")
        }
        switch backend {
        case .sqlite:
            #expect(try FileManager.default.contentsOfDirectory(atPath: database.directory.url.path).isEmpty)
        case .postgresql:
            #expect(try Store.contentsForTesting(at: db).isEmpty)
        }
        // An explicit init creates it, after which the same commands work.
        let created = await runCLI(["init", "--db", db])
        #expect(created.status == 0)
        #expect(created.stdout.hasSuffix("(schema \(Store.latestSchemaVersion))\n"))
        #expect(await runCLI(["status", "--check", "--db", db]).status == 0)
    }

    @Test("status answers, in this process and from the binary, while another connection holds SQLite's write lock")
    func statusUnderWriteLock() async throws {
        let database = try await Self.database(.sqlite, users: ["ada"])
        let other = try Connection(path: database.path)
        try other.execute("BEGIN IMMEDIATE")
        defer { try? other.execute("ROLLBACK") }
        let status = await runCLI(["status", "--json", "--db", database.path, "--now", Self.start])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains(#""users":1"#))
        // The same from the built binary, another process. A status that waited for the lock would get
        // SQLite's busy error after the 15 s busy timeout and exit non-zero; the limit only bounds a hang.
        let binary = try await runBinary(
            ["status", "--json", "--db", database.path, "--now", Self.start], timeLimit: .seconds(180))
        #expect(binary.status == 0 && !binary.timedOut, "\(binary.stderr)")
        #expect(binary.stdout.contains(#""users":1"#))
    }
}
