import Domain
import Foundation
import Glibc
import Ingestion
import PipelineKit
import Scheduling
import TestSupport
import Testing

@testable import Storage

/// The built `pipeline` as many processes on one PostgreSQL database (DESIGN §3–4): workers that
/// share the due requests (and race to start the chains), one killed mid-run, ingestion during a
/// retrain, a fresh database migrated by two processes at once, and an unreachable server. Every
/// database is a fresh schema of the test server (`PIPELINE_TEST_POSTGRES`); the product's code
/// paths run unchanged, and what a test adds is a lock or a row from its own connection, to hold a
/// worker at a known point.
///
/// Serialized: the first test keeps both cores busy with eight processes, and the tests that hold
/// a lock must release it before the blocked worker's `lock_timeout` (15 s) runs out.
@Suite("Many workers on one PostgreSQL database", .postgreSQL, .serialized, .timeLimit(.minutes(10)))
struct PostgreSQLWorkerTests {
    /// The longest any process here may take; past it the process is killed and the test fails. Bounds
    /// a hang, not a speed: on a loaded 2-core machine with the whole suite running beside it, a launch
    /// that takes a second alone has taken over a minute.
    static let processLimit: Duration = .seconds(300)
    /// The longest a test waits for a line of a running process's log (a bound on a hang, as above).
    static let logLimit: Duration = .seconds(180)

    /// A fresh database holding `generator`'s cohort, ingested in this process.
    static func database(with generator: CohortGenerator) async throws -> (TestDatabase, Pipeline) {
        let database = TestDatabase(.postgresql, now: generator.now)
        return (database, try await database.open(ingesting: generator))
    }

    /// Who starts the task chains of a cohort the workers have never seen.
    enum ChainStart: String, CustomStringConvertible, CaseIterable {
        /// One launch in this process, before the workers: the due requests are known beforehand.
        case beforehand
        /// The eight workers themselves, racing to submit every chain with `.keep`, as cron's first
        /// launches after new users arrive do.
        case byTheWorkers

        var description: String { rawValue }
    }

    @Test(
        "eight launches at once on 2,000 users run every due request exactly once, sharing the work",
        arguments: ChainStart.allCases)
    func eightWorkers(chains: ChainStart) async throws {
        let now = "2026-03-15T12:00:00Z"
        let users = 2000
        let generator = CohortGenerator(users: users, days: 3, seed: 11, now: Date(iso: now))
        let (database, pipeline) = try await Self.database(with: generator)
        let store = pipeline.store
        let clock = database.clock
        // Every user's health-refresh starts due at once, and so does ml-retrain, which `pipeline run`
        // leaves to `pipeline retrain`; the reminders start at the user's next reminder hour, later.
        let conditions = MachineConditions().currentConditions()
        let expectedDue = ["health-refresh": users]

        var due: [TaskRequestRecord] = []
        if chains == .beforehand {
            var options = LaunchOptions()
            options.tasks = []
            let started = try await pipeline.launch(options)
            #expect(started.startedChains == users * PipelineTasks.identifiers.count && started.runs.isEmpty)
            due = try await store.taskRequests().filter { request in
                request.identifier != PipelineTasks.mlRetrain.rawValue
                    && (request.earliestBeginAt ?? request.submittedAt) <= clock.now
                    && (!request.requiresExternalPower || conditions.isOnExternalPower)
                    && (!request.requiresNetwork || conditions.hasNetworkConnectivity)
            }
            try #require(Dictionary(grouping: due, by: \.identifier).mapValues(\.count) == expectedDue)
        }

        let arguments = ["run", "--db", database.path, "--now", now, "--jobs", "2", "--json"]
        let launches = try await withThrowingTaskGroup(of: BinaryRun.self) { group in
            for _ in 0..<8 {
                group.addTask { try await runBinary(arguments, timeLimit: Self.processLimit) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        var startedChains = 0
        var reportedRuns = 0
        for launch in launches {
            #expect(!launch.timedOut && launch.status == 0, "\(launch.stderr)")
            #expect(launch.stderr.isEmpty)
            let report = try JSONSerialization.jsonObject(with: Data(launch.stdout.utf8)) as? [String: Any]
            startedChains += report?["startedChains"] as? Int ?? 0
            reportedRuns += (report?["runCount"] as? Int) ?? 0
        }
        // Each chain was started once, by one of the launches.
        #expect(startedChains == (chains == .beforehand ? 0 : users * PipelineTasks.identifiers.count))

        let history = try await store.taskRuns(includeUnfinished: true)
        #expect(history.allSatisfy { $0.outcome == .success }, "every run finished, and succeeded")
        #expect(history.count == reportedRuns, "the launches reported every run they made")
        let successes = history.filter { $0.outcome == .success }
        let runsPerRequest = Dictionary(grouping: successes, by: \.requestID).mapValues(\.count)
        #expect(runsPerRequest.values.allSatisfy { $0 == 1 }, "no request ran twice")
        let runsPerChain = Dictionary(grouping: successes) { "\($0.identifier) \($0.scope)" }.mapValues(\.count)
        #expect(runsPerChain.values.allSatisfy { $0 == 1 }, "no user's task ran twice")
        #expect(Dictionary(grouping: successes, by: \.identifier).mapValues(\.count) == expectedDue)
        if chains == .beforehand {
            #expect(Set(runsPerRequest.keys) == Set(due.map(\.id)), "exactly the due requests ran")
        }

        // Nothing due is left but the retrains: each chain goes on with one pending request, unleased,
        // not yet due unless it waits for `pipeline retrain`.
        let pending = try await store.taskRequests()
        #expect(pending.allSatisfy { $0.leaseOwner == nil })
        #expect(
            pending.allSatisfy {
                $0.identifier == PipelineTasks.mlRetrain.rawValue || ($0.earliestBeginAt ?? $0.submittedAt) > clock.now
            })
        #expect(Set(pending.map { "\($0.identifier) \($0.scope)" }).count == users * PipelineTasks.identifiers.count)
        #expect(pending.count == users * PipelineTasks.identifiers.count)
        #expect(Set(pending.map(\.id)).isDisjoint(with: runsPerRequest.keys))

        // Worker names are host:pid:tag/job; the processes are the part before the job.
        let processes = Set(successes.map { $0.worker.split(separator: "/").dropLast().joined(separator: "/") })
        #expect(processes.count > 1, "the work was shared (\(processes.count) process ran it all)")
    }

    @Test("a chain start racing a claim of the same chain's first request does not start the chain twice")
    func chainStartRacingAClaim() async throws {
        // What the eight launches above can do by chance, made certain: launch B checks for the
        // chain's request before launch A's insert commits, and by the time its insert gets past A's,
        // the request is claimed (here A claims it in the same transaction, so B sees it only leased).
        let database = TestDatabase(.postgresql)
        let holder = try Store(path: database.path, clock: database.clock)
        let racer = "racer_\(database.schema)"
        let launch = try Store(path: database.path + "&application_name=\(racer)", clock: database.clock)
        let claimed = Store.milliseconds(database.clock.now)
        try await holder.executeForTesting(
            """
            BEGIN;
            INSERT INTO task_requests (identifier, scope, kind, submitted_at)
                VALUES ('health-refresh', 'ada', 'refresh', \(claimed));
            UPDATE task_requests SET lease_owner = 'worker-a', lease_expires_at = \(claimed + 40_000),
                claimed_at = \(claimed), attempts = 1
            """)
        let submit = Task {
            try await launch.submit(
                NewTaskRequest(identifier: "health-refresh", scope: "ada", kind: .refresh, earliestBeginAt: nil),
                replacing: false)
        }
        // Commit A only once B's insert waits on A's row: its check has run on the older snapshot.
        // (The server polls the activity view every 10 ms. The bound only ends a wait for a submit that
        // failed instead of waiting; a loaded machine can take many seconds to get B that far.)
        let watcher = try Store(path: database.path, clock: database.clock)
        try await watcher.executeForTesting(
            """
            DO $$
            DECLARE deadline timestamptz := clock_timestamp() + interval '5 minutes';
            BEGIN
                LOOP
                    PERFORM pg_sleep(0.01);
                    PERFORM pg_stat_clear_snapshot();
                    EXIT WHEN EXISTS (SELECT 1 FROM pg_stat_activity
                        WHERE application_name = '\(racer)' AND wait_event_type = 'Lock');
                    IF clock_timestamp() > deadline THEN
                        RAISE EXCEPTION 'the racing submit never waited for the first insert';
                    END IF;
                END LOOP;
            END $$
            """)
        try await holder.executeForTesting("COMMIT")
        let started = try await submit.value

        #expect(!started, "the chain already has a request: the running one")
        let requests = try await holder.taskRequests(identifier: "health-refresh", scope: "ada")
        #expect(requests.map(\.leaseOwner) == ["worker-a"], "one request, the claimed one")
    }

    @Test("a worker killed mid-run has its request rescued after the lease, re-run once with the attempt counted")
    func killedWorker() async throws {
        let now = "2026-11-29T12:00:00Z"
        let (database, pipeline) = try await Self.database(
            with: CohortGenerator(users: 1, days: 30, seed: 3, now: Date(iso: now)))
        let user = "user-00001"

        // This connection holds the model tables: the retrain blocks at its first read of the stored
        // models, so the kill lands while its run is open, however fast the machine is.
        let lock = try Store(path: database.path, clock: database.clock)
        try await lock.executeForTesting("BEGIN; LOCK TABLE model_artifacts IN ACCESS EXCLUSIVE MODE")
        let child = try ChildProcess.start(
            ["retrain", "--db", database.path, "--now", now, "--jobs", "1"], environment: ["PIPELINE_LOG": "info"])
        let reached = await Self.waitForOutput(of: child, containing: "ml-retrain [\(user)]: running (attempt 1)")
        try #require(reached, "the retrain ended before its run started: \(child.errorOutput)")
        kill(child.identifier, SIGKILL)
        #expect(await Self.waitForExit(of: child) == .signal(SIGKILL))
        try await lock.executeForTesting("ROLLBACK")

        // The run was in progress: the request is leased by the dead worker and its run is open.
        let store = pipeline.store
        // (The handler submitted its successor first, as every handler does: that one is pending.)
        let held = try await store.taskRequests(identifier: "ml-retrain", scope: user).filter { $0.leaseOwner != nil }
        try #require(held.count == 1, "the retrain was not running when it died")
        let open = try await store.taskRuns(identifier: "ml-retrain", scope: user, includeUnfinished: true)
        #expect(open.map(\.outcome) == [nil])

        // Inside the lease (10 min budget + 10 s grace), a launch leaves the request alone.
        let early = try await runBinary(
            ["retrain", "--db", database.path, "--now", "2026-11-29T12:05:00Z"], timeLimit: Self.processLimit)
        #expect(early.status == 75, "\(early.stderr)")
        #expect(early.stderr.contains("already running in another process; try again later"))

        let recovery = try await runBinary(
            ["retrain", "--db", database.path, "--now", "2026-11-29T12:10:11Z"], timeLimit: Self.processLimit)
        #expect(recovery.status == 0, "\(recovery.stderr)")
        #expect(recovery.stderr.contains("died during its run (lease expired); running it again"))

        let runs = try await store.taskRuns(identifier: "ml-retrain", scope: user, includeUnfinished: true)
        #expect(runs.map(\.outcome) == [.failure, .success])
        #expect(runs.map(\.attempt) == [1, 2])
        #expect(runs.map(\.requestID) == [held[0].id, held[0].id])
        #expect(runs.first?.reason == "lease expired: worker died")
        #expect(runs.first?.worker == held[0].leaseOwner)
        // The request is done: gone, and its successor waits for tomorrow with no attempt counted.
        let after = try await store.taskRequests(identifier: "ml-retrain", scope: user)
        #expect(after.count == 1 && !after.map(\.id).contains(held[0].id))
        #expect(after.allSatisfy { $0.leaseOwner == nil && $0.attempts == 0 && $0.earliestBeginAt != nil })
        // The dead run saved nothing; the re-run saved the user's one model.
        #expect(try await store.modelHistory(scope: user).count == 1)
    }

    @Test("ingestion while a retrain runs loses nothing, and the retrain finishes every user")
    func ingestDuringRetrain() async throws {
        let now = "2026-11-29T12:00:00Z"
        let generator = CohortGenerator(users: 300, days: 30, seed: 7, now: Date(iso: now))
        let (database, pipeline) = try await Self.database(with: generator)
        let users = generator.truths().map(\.id)

        // New entries and health days for every user, on days before the cohort's: nothing there to
        // merge with, so each stored value must be the one sent.
        let days = (1...4).map { Day.literal("2026-09-01").adding(days: $0) }
        var sent: [UserID: [Day: (severity: Int, mood: Int, steps: Int)]] = [:]
        var input = ""
        for (index, user) in users.enumerated() {
            for (offset, day) in days.enumerated() {
                let values = ((index + offset) % 11, 1 + (index * 3 + offset) % 5, 500 + 97 * index + offset)
                sent[user, default: [:]][day] = values
                input +=
                    #"{"type":"entry","user":"\#(user)","day":"\#(day)","symptomSeverity":\#(values.0),"#
                    + #""mood":\#(values.1)}"# + "\n"
                input += #"{"type":"health","user":"\#(user)","day":"\#(day)","stepCount":\#(values.2)}"# + "\n"
            }
        }
        let file = database.directory.path("new.jsonl")
        try Data(input.utf8).write(to: URL(fileURLWithPath: file))

        // The retrain is held in its first runs by this connection's lock on the model tables, so the
        // whole ingest happens while it is in progress; then it is let go and finishes the cohort.
        let lock = try Store(path: database.path, clock: database.clock)
        try await lock.executeForTesting("BEGIN; LOCK TABLE model_artifacts IN ACCESS EXCLUSIVE MODE")
        let retrain = try ChildProcess.start(
            ["retrain", "--db", database.path, "--now", now, "--jobs", "2"], environment: ["PIPELINE_LOG": "info"])
        let reached = await Self.waitForOutput(of: retrain, containing: ": running (attempt 1)")
        try #require(reached, "the retrain ended before its first run: \(retrain.errorOutput)")
        let ingest = try await runBinary(
            ["ingest", "--db", database.path, "--now", now, file], timeLimit: Self.processLimit)
        #expect(ingest.status == 0 && !ingest.timedOut, "\(ingest.stderr)")
        #expect(ingest.stderr.isEmpty)
        let finishedDuringIngest = try await pipeline.store.taskRuns(identifier: "ml-retrain")
        try await lock.executeForTesting("ROLLBACK")
        #expect(finishedDuringIngest.isEmpty, "no retrain run finished before the ingest did")
        #expect(await Self.waitForExit(of: retrain) == .exit(0), "\(retrain.errorOutput)")
        let logged = retrain.errorOutput.split(separator: "\n")
        #expect(logged.allSatisfy { $0.hasPrefix("info: ") }, "only progress is logged: \(retrain.errorOutput)")

        for user in users {
            let logs = Dictionary(
                uniqueKeysWithValues: try await pipeline.dailyLogs(user: user, from: days.first, through: days.last)
                    .map { ($0.day, $0) })
            for (day, values) in sent[user] ?? [:] {
                let log = logs[day]
                #expect(log?.symptomSeverity == values.severity && log?.mood == values.mood, "\(user) \(day)")
                #expect(log?.stepCount?.value == values.steps, "\(user) \(day)")
            }
        }
        let runs = try await pipeline.store.taskRuns(identifier: "ml-retrain")
        #expect(runs.count == users.count && runs.allSatisfy { $0.outcome == .success })
        #expect(Set(runs.map(\.scope)) == Set(users.map(\.rawValue)))
    }

    @Test("two processes migrating a fresh database at the same moment both succeed, each migration applied once")
    func concurrentMigration() async throws {
        // Three fresh databases, two processes each started together: the first open of each migrates.
        let databases = (0..<3).map { _ in TestDatabase(.postgresql) }
        let runs = try await withThrowingTaskGroup(of: BinaryRun.self) { group in
            for database in databases {
                for _ in 0..<2 {
                    group.addTask {
                        try await runBinary(["init", "--db", database.path], timeLimit: Self.processLimit)
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(runs.count == 6)
        for run in runs {
            #expect(run.status == 0 && !run.timedOut, "\(run.stderr)")
            #expect(run.stderr.isEmpty)
        }
        for database in databases {
            let store = try Store(path: database.path, clock: database.clock)
            #expect(try await store.schemaVersion() == Store.latestSchemaVersion)
            #expect(try await store.migrationCountForTesting() == Store.latestSchemaVersion)
        }
    }

    @Test(
        "a server that cannot be reached is exit 75, try again later",
        arguments: [
            TestBackend.postgresServerURL + (TestBackend.postgresServerURL.contains("?") ? "&" : "?") + "port=1",
            "postgresql:///pipeline_test?host=/nonexistent/socket-dir",
        ])
    func unreachableServer(url: String) async throws {
        let run = try await runBinary(["status", "--db", url], timeLimit: Self.processLimit)
        #expect(run.status == 75, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("Error: cannot connect to the PostgreSQL database"))
        #expect(run.stderr.contains("try again later"))
        #expect(run.stdout.isEmpty)
    }

    @Test("a password in the URL is never printed")
    func passwordNeverPrinted() async throws {
        for url in [
            "postgresql://pipeline:s3cret@/nodb?host=/nonexistent",
            "postgresql://pipeline@/nodb?host=/nonexistent&password=s3cret",
        ] {
            for command in [["status"], ["run"], ["history"]] {
                let run = try await runBinary(command + ["--db", url], timeLimit: Self.processLimit)
                #expect(run.status == 75, "\(command) \(run.stderr)")
                #expect(run.stderr.contains("postgresql://pipeline"), "the message names the database")
                #expect(!run.stdout.contains("s3cret") && !run.stderr.contains("s3cret"), "\(command)")
            }
        }
    }

    // MARK: Waiting, with a time limit

    /// Waits until `child`'s stderr contains `marker`; `false` if it ended without it, or if it had
    /// not printed it within `logLimit` (it is then killed).
    static func waitForOutput(of child: ChildProcess, containing marker: String) async -> Bool {
        let watchdog = Task {
            guard (try? await Task.sleep(for: logLimit)) != nil else { return }
            kill(child.identifier, SIGKILL)
        }
        defer { watchdog.cancel() }
        return await child.waitForOutput(containing: marker)
    }

    /// Waits until `child` ends; one still running after `processLimit` is killed (and so ends with
    /// SIGKILL, which fails a test expecting an exit).
    static func waitForExit(of child: ChildProcess) async -> ChildProcess.Ending {
        let watchdog = Task {
            guard (try? await Task.sleep(for: processLimit)) != nil else { return }
            kill(child.identifier, SIGKILL)
        }
        defer { watchdog.cancel() }
        return await child.waitForExit()
    }
}
