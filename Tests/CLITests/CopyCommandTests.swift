import Domain
import Foundation
import Storage
import TestSupport
import Testing

/// `pipeline copy` on the real PostgreSQL test server: a database with rows in every table goes
/// SQLite → PostgreSQL → SQLite and comes back the same, id for id, and the PostgreSQL copy answers
/// the commands as the original does.
@Suite("pipeline copy")
struct CopyCommandTests {
    static let first = "2026-11-28T12:00:00Z"
    static let second = "2026-11-29T12:00:00Z"
    /// After both launches: their successors are due, so a worker can hold one.
    static let later = "2026-12-01T12:00:00Z"

    /// An SQLite database with rows in every table: a generated cohort with watch items and
    /// settings, retrained and run at two instants (requests, runs, outbox messages, artifacts,
    /// serving models) and evaluated; then queued watch items (one of a kind this version does not apply, one
    /// that failed once, its JSON spaced as written), a dead letter, an acknowledged outbox message
    /// and a request leased by a worker.
    static func populatedSQLite() async throws -> TestDatabase {
        let db = TestDatabase(.sqlite, now: Date(iso: later))
        let cohort = await runCLI(["generate", "--users", "4", "--days", "60", "--now", first])
        let ingest = await runCLI(["ingest", "-", "--db", db.path, "--now", first], stdin: cohort.stdout)
        try #require(ingest.status == 0, "\(ingest.stderr)")
        for arguments in [
            ["retrain", "--now", first], ["run", "--now", first], ["run", "--now", second],
            ["evaluate", "--days", "3", "--now", second],
        ] {
            let run = await runCLI(arguments + ["--db", db.path])
            try #require(run.status == 0, "\(arguments): \(run.stderr)")
        }
        let queued = await runCLI(
            ["ingest", "-", "--db", db.path, "--now", second],
            stdin: """
                {"type":"watch","user":"user-00001","kind":"symptomLog","payload":{"day":"2026-11-29","symptomSeverity":5}}
                {"type":"watch","user":"user-00002","kind":"medicationLog","payload":{"day":"2026-11-29","dose":2}}
                {"type":"settings","user":"user-00003","engagementNotifications":false}

                """)
        try #require(queued.status == 0, "\(queued.stderr)")

        let store = try Store(path: db.path, clock: db.clock)
        let retried = try await store.enqueue(
            WatchSubmission(
                user: .literal("user-00003"), kind: "symptomLog", payload: #"{"day":"2026-11-29", "mood": 2}"#,
                enqueuedAt: db.clock.now))
        _ = try await store.recordFailure(watchItem: retried, error: "mood: the handler failed")
        // A dead letter an operator requeued: it stays, resolved, next to the item that replaced it.
        let requeued = try await store.enqueue(
            WatchSubmission(
                user: .literal("user-00002"), kind: "symptomLog", payload: #"{"day":"2026-11-28","mood":4}"#,
                enqueuedAt: db.clock.now))
        for _ in 0..<WatchItem.maxAttempts {
            _ = try await store.recordFailure(watchItem: requeued, error: "mood: the handler failed")
        }
        _ = try await store.requeueDeadLetters(ids: [requeued], user: nil)
        let doomed = try await store.enqueue(
            WatchSubmission(
                user: .literal("user-00004"), kind: "symptomLog", payload: #"{"day":"2026-11-29","mood":3}"#,
                enqueuedAt: db.clock.now))
        for _ in 0..<WatchItem.maxAttempts {
            _ = try await store.recordFailure(watchItem: doomed, error: "mood: the handler failed")
        }
        let sent = try #require(
            try await store.post(
                NewOutboxMessage(
                    user: .literal("user-00001"), kind: "test-note", day: .literal("2026-11-30"),
                    body: "A message already sent")))
        _ = try await store.post(
            NewOutboxMessage(
                user: .literal("user-00002"), kind: "test-note", day: .literal("2026-11-30"),
                body: "One still waiting"))
        _ = try await store.acknowledgeOutboxMessages([sent])
        // A cancelled request and a launch record, so every table has rows.
        let cancelled = try #require(try await store.taskRequests().last { $0.leaseOwner == nil })
        _ = try await store.cancelTaskRequests(ids: [cancelled.id], identifier: nil, scope: nil)
        try await store.recordLaunch(worker: "host:1:test")
        let pending = try #require(try await store.taskRequests().first { $0.leaseOwner == nil })
        let claimed = try await store.claimTaskRequests(
            TaskClaim(
                owner: "worker-a", refreshLease: 600, processingLease: 3_600, isOnExternalPower: true,
                hasNetworkConnectivity: true, identifiers: [pending.identifier], scope: pending.scope, limit: 1))
        try #require(claimed.count == 1)
        return db
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Output without the line that names the database.
    static func withoutDatabase(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("database") }
            .joined(separator: "\n")
    }

    @Test(
        "SQLite → PostgreSQL → SQLite gives back every row of every table, ids, sources and serving models included",
        .postgreSQL)
    func roundTrip() async throws {
        let source = try await Self.populatedSQLite()
        let original = try await copyRows(of: Store(path: source.path))
        for table in CopyTable.allCases {
            #expect(!(original[table] ?? []).isEmpty, "the source has no \(table.name)")
        }
        let leaseOwner = try #require(CopyTable.taskRequests.columns.firstIndex { $0.name == "lease_owner" })
        #expect(original[.taskRequests]?.contains { $0[leaseOwner] != .null } == true, "a request is leased")

        // Small pages, so every table and both composite keys are read over several pages.
        let postgres = TestDatabase(.postgresql)
        let toPostgres = await runCLI([
            "copy", "--from", source.path, "--to", postgres.path, "--page-size", "7", "--json",
        ])
        try #require(toPostgres.status == 0, "\(toPostgres.stderr)")
        let report = try Self.object(toPostgres.stdout)
        let counts = try #require(report["tables"] as? [String: Int])
        for table in CopyTable.allCases {
            #expect(counts[table.name] == original[table]?.count, "\(table.name)")
        }
        #expect(report["total"] as? Int == original.values.reduce(0) { $0 + $1.count })
        #expect(report["from"] as? String == source.path)

        let onPostgres = try await copyRows(of: Store(path: postgres.path))
        for table in CopyTable.allCases {
            // PostgreSQL orders text keys by its collation; the rows are the same.
            #expect(Set(onPostgres[table] ?? []) == Set(original[table] ?? []), "\(table.name)")
            #expect(onPostgres[table]?.count == original[table]?.count, "\(table.name)")
        }

        let back = TestDatabase(.sqlite)
        let toSQLite = await runCLI(["copy", "--from", postgres.path, "--to", back.path, "--page-size", "5"])
        try #require(toSQLite.status == 0, "\(toSQLite.stderr)")
        #expect(toSQLite.stdout.contains("\nusers                      4\n"))
        #expect(toSQLite.stdout.hasPrefix("from  postgresql://"))
        let final = try await copyRows(of: Store(path: back.path))
        #expect(final == original)
    }

    @Test("the PostgreSQL copy answers status, model, outbox, export and history as the original does", .postgreSQL)
    func copyBehaves() async throws {
        let source = try await Self.populatedSQLite()
        let postgres = TestDatabase(.postgresql)
        let copy = await runCLI(["copy", "--from", source.path, "--to", postgres.path])
        try #require(copy.status == 0, "\(copy.stderr)")
        let commands = [
            ["status", "--now", Self.later], ["status", "--json", "--now", Self.later],
            ["model", "--user", "user-00001"], ["model", "--user", "user-00002", "--json"],
            ["predict", "--user", "user-00003", "--now", Self.second], ["outbox"],
            ["export", "--user", "user-00004"], ["history", "--user", "user-00001"],
        ]
        for arguments in commands {
            let original = await runCLI(arguments + ["--db", source.path])
            let copied = await runCLI(arguments + ["--db", postgres.path])
            #expect(original.status == 0, "\(arguments): \(original.stderr)")
            #expect(copied.status == original.status, "\(arguments): \(copied.stderr)")
            if arguments.contains("--json"), arguments[0] == "status" {
                var left = try Self.object(original.stdout)
                var right = try Self.object(copied.stdout)
                left["database"] = nil
                right["database"] = nil
                #expect(NSDictionary(dictionary: left) == NSDictionary(dictionary: right), "\(arguments)")
            } else {
                #expect(Self.withoutDatabase(copied.stdout) == Self.withoutDatabase(original.stdout), "\(arguments)")
            }
        }
    }

    @Test(
        "a target that holds data is refused with status 65, named without its password, and left unchanged",
        .postgreSQL)
    func refusesNonEmptyTarget() async throws {
        let source = try await Self.populatedSQLite()
        let postgres = TestDatabase(.postgresql)
        let copy = await runCLI(["copy", "--from", source.path, "--to", postgres.path])
        try #require(copy.status == 0, "\(copy.stderr)")
        let before = try await copyRows(of: Store(path: postgres.path))

        // The test server trusts its socket, so a password in the URL is accepted and ignored.
        let withPassword = postgres.path.replacingOccurrences(
            of: "postgresql:///", with: "postgresql://pipeline:hunter2secret@/")
        let again = await runCLI(["copy", "--from", source.path, "--to", withPassword])
        #expect(again.status == 65)
        #expect(again.stdout.isEmpty)
        #expect(again.stderr.contains("already holds data (in users, daily_logs"))
        #expect(again.stderr.contains("DROP SCHEMA"))
        #expect(again.stderr.contains("pipeline:***@"))
        #expect(!again.stderr.contains("hunter2secret"))
        #expect(try await copyRows(of: Store(path: postgres.path)) == before)

        // Into an SQLite file that holds data, the other way.
        let sourceBefore = try await copyRows(of: Store(path: source.path))
        let intoSQLite = await runCLI(["copy", "--from", postgres.path, "--to", source.path])
        #expect(intoSQLite.status == 65)
        #expect(intoSQLite.stderr.contains("the database at \(source.path) already holds data"))
        #expect(try await copyRows(of: Store(path: source.path)) == sourceBefore)
    }

    @Test(
        "after a copy into PostgreSQL, new rows get ids past every copied one, dead letters' and runs' included",
        .postgreSQL)
    func sequencesMoved() async throws {
        let source = try await Self.populatedSQLite()
        let postgres = TestDatabase(.postgresql)
        let copy = await runCLI(["copy", "--from", source.path, "--to", postgres.path])
        try #require(copy.status == 0, "\(copy.stderr)")
        let copied = try await copyRows(of: Store(path: postgres.path))
        let store = try Store(path: postgres.path, clock: postgres.clock)

        // The dead letter took the largest watch item id; a new item must not take it again.
        let largestWatchID = max(
            largest("id", of: .watchItems, in: copied), largest("id", of: .watchDeadLetters, in: copied))
        #expect(largest("id", of: .watchDeadLetters, in: copied) > largest("id", of: .watchItems, in: copied))
        let item = try await store.enqueue(
            WatchSubmission(
                user: .literal("user-00001"), kind: "symptomLog", payload: #"{"day":"2026-11-30","mood":4}"#,
                enqueuedAt: postgres.clock.now))
        #expect(item == largestWatchID + 1)

        let message = try #require(
            try await store.post(
                NewOutboxMessage(
                    user: .literal("user-00003"), kind: "test-note", day: .literal("2026-12-01"), body: "New")))
        #expect(message == largest("id", of: .outbox, in: copied) + 1)

        let requestFloor = max(
            largest("id", of: .taskRequests, in: copied), largest("request_id", of: .taskRuns, in: copied),
            largest("request_id", of: .discardedTaskRequests, in: copied))
        #expect(
            try await store.submit(
                NewTaskRequest(identifier: "copy-test", scope: "", kind: .refresh, earliestBeginAt: nil),
                replacing: false))
        let request = try #require(try await store.taskRequests(identifier: "copy-test").first)
        #expect(request.id == requestFloor + 1)

        guard case .text(let scope) = try #require(copied[.modelArtifacts]?.first)[1] else {
            Issue.record("an artifact's scope is text")
            return
        }
        let history = try await store.modelHistory(scope: scope, limit: 1)
        var model = try #require(history.first)
        model.promoted = false
        let artifact = try await store.save(model)
        #expect(artifact == largest("id", of: .modelArtifacts, in: copied) + 1)
    }

    @Test("a missing SQLite source is refused without being created; the same database twice is a usage error")
    func refusesMissingSourceAndSameDatabase() async throws {
        let directory = TemporaryDirectory()
        let missing = directory.path("typo.sqlite")
        let run = await runCLI(["copy", "--from", missing, "--to", directory.path("new.sqlite")])
        #expect(run.status == 78)
        #expect(run.stderr.contains("there is no database at \(missing)"))
        #expect(!FileManager.default.fileExists(atPath: missing))
        #expect(!FileManager.default.fileExists(atPath: directory.path("new.sqlite")))

        let db = directory.path("p.sqlite")
        _ = await runCLI(["init", "--db", db])
        let same = await runCLI(["copy", "--from", db, "--to", db])
        #expect(same.status == 64)
        #expect(same.stderr.contains("--from and --to name the same database"))
    }

    @Test("copy --help says what is copied, that the target must be empty, and shows both directions")
    func help() async {
        let run = await runCLI(["copy", "--help"])
        #expect(run.status == 0)
        let text = run.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("Usage: pipeline copy --from <database> --to <database>"))
        #expect(text.contains("dead letters"))
        #expect(text.contains("The target must be empty"))
        #expect(text.contains("pipeline copy --from pipeline.sqlite --to postgresql://"))
        #expect(text.contains("pipeline copy --from postgresql://db.internal/pipeline --to copy.sqlite"))
    }
}
