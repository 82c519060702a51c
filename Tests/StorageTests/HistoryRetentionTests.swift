import Domain
import Foundation
import TestSupport
import Testing

@testable import Storage

/// Run history that pruning keeps up with (schema 14): each chain's latest finished run is kept apart from the
/// history, which is pruned without exception — on PostgreSQL by dropping whole days.
@Suite("Run history retention", .timeLimit(.minutes(10)))
struct HistoryRetentionTests {
    static let day: TimeInterval = 86_400

    /// Claims the pending requests of `identifier` for `scopes` (submitting them first) and finishes each run.
    static func run(
        _ store: Store, _ identifier: String, _ scopes: [String], outcome: TaskRunOutcome = .success,
        finishing: Bool = true
    ) async throws -> [ClaimedTaskRequest] {
        try await store.submit(
            scopes.map { NewTaskRequest(identifier: identifier, scope: $0, kind: .refresh, earliestBeginAt: nil) },
            replacing: true)
        let claimed = try await claim(store, identifier, as: "w")
        #expect(claimed.count == scopes.count)
        if finishing {
            let finishes = try await store.finishTaskRuns(
                claimed.map {
                    TaskRunCompletion(
                        $0, owner: "w", outcome: outcome, reason: nil,
                        retryAt: outcome == .success ? nil : Date.distantFuture)
                })
            #expect(finishes.allSatisfy { $0 != .leaseLost })
        }
        return claimed
    }

    /// A new store whose run history is ready for today's runs, as a launch leaves it.
    static func storeWithDaysPrepared(_ backend: TestBackend) async throws -> (TestDatabase, Store) {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        try await store.prepareRunHistory()
        return (database, store)
    }

    /// Claims every due request of `identifier` for `owner`, with leases of ten minutes.
    static func claim(_ store: Store, _ identifier: String, as owner: String) async throws -> [ClaimedTaskRequest] {
        try await store.claimTaskRequests(
            TaskClaim(
                owner: owner, refreshLease: 600, processingLease: 600, isOnExternalPower: true,
                hasNetworkConnectivity: true, identifiers: [identifier], scope: nil, limit: 100))
    }

    /// A PostgreSQL catalog or table count on the store's schema (`database.path` names it).
    static func count(_ database: TestDatabase, _ sql: StaticString) throws -> Int64 {
        try PostgreSQLConnection(url: database.path).query(sql).int64(0, 0)
    }

    @Test(
        "old history goes, on PostgreSQL a day's partition whole, and each chain's latest run stays readable",
        arguments: TestBackend.all)
    func dayDroppedWhole(backend: TestBackend) async throws {
        let (database, store) = try await Self.storeWithDaysPrepared(backend)
        // Two runs of each of two chains on 2026-03-15, the second of each its chain's latest.
        _ = try await Self.run(store, "daily", ["ada", "bob"])
        database.clock.advance(by: 3600)
        _ = try await Self.run(store, "daily", ["ada", "bob"], outcome: .failure)
        let latest = try await store.taskRuns().filter { $0.outcome == .failure }
        #expect(latest.count == 2)
        if backend == .postgresql {
            #expect(
                try Self.count(
                    database,
                    """
                    SELECT count(*) FROM pg_inherits
                    WHERE inhparent = 'task_runs'::regclass AND inhrelid = to_regclass('task_runs_20260315')
                    """) == 1)
            #expect(try Self.count(database, "SELECT count(*) FROM task_runs_20260315") == 4)
            #expect(try Self.count(database, "SELECT count(*) FROM task_runs_default") == 0)
        }

        // Not yet a day past the retention: nothing goes.
        #expect(
            try await store.pruneHistory(before: database.clock.now.addingTimeInterval(-Self.day), limit: 10).runs == 0)
        database.clock.advance(by: 3 * Self.day)
        let pruned = try await store.pruneHistory(before: database.clock.now.addingTimeInterval(-Self.day), limit: 10)
        #expect(pruned.runs == 4)
        if backend == .postgresql {
            #expect(
                try Self.count(database, "SELECT count(*) FROM pg_class WHERE oid = to_regclass('task_runs_20260315')")
                    == 0)
            #expect(
                try Self.count(database, "SELECT count(*) FROM pg_inherits WHERE inhparent = 'task_runs'::regclass")
                    == 2)  // the default partition, and 2026-03-17 (made ahead, not a day past the retention)
        }
        // The runs are gone from the history; each chain's latest is still read by history and status.
        #expect(try await store.taskRuns() == latest)
        let totals = try await store.taskRunTotals()
        #expect(totals.map(\.runs) == [0, 0])
        #expect(totals.map(\.outcome) == [.failure, .success])
        #expect(totals.first { $0.outcome == .success }?.lastFinishedAt == Date(iso: "2026-03-15T12:00:00Z"))
        #expect(totals.first { $0.outcome == .failure }?.lastFinishedAt == Date(iso: "2026-03-15T13:00:00Z"))
    }

    @Test(
        "a run in progress is never pruned, and is closed as usual when its request is reclaimed days later",
        arguments: TestBackend.all)
    func openRunKept(backend: TestBackend) async throws {
        let (database, store) = try await Self.storeWithDaysPrepared(backend)
        // A worker claims and dies; nobody reclaims its request for days.
        _ = try await Self.run(store, "daily", ["ada"], finishing: false)
        database.clock.advance(by: 3 * Self.day)
        _ = try await store.pruneHistory(before: database.clock.now.addingTimeInterval(-Self.day), limit: 10)
        let open = try await store.taskRuns(includeUnfinished: true)
        #expect(open.count == 1)
        #expect(open.first?.finishedAt == nil)
        if backend == .postgresql {
            #expect(try Self.count(database, "SELECT count(*) FROM task_runs_default") == 1)
        }
        let claimed = try await Self.claim(store, "daily", as: "v")
        #expect(claimed.map(\.abandonedBy) == ["w"])
        let runs = try await store.taskRuns()
        #expect(runs.map(\.id) == open.map(\.id))
        #expect(runs.first?.reason == "lease expired: worker died")
    }

    @Test(
        "a run that finishes after a later run of its chain leaves the later one the chain's latest",
        arguments: TestBackend.all)
    func laterRunStaysLatest(backend: TestBackend) async throws {
        let (database, store) = try await Self.storeWithDaysPrepared(backend)
        // A worker holds the chain's request while its successor, submitted first thing, is claimed by another.
        let first = try await Self.run(store, "daily", ["ada"], finishing: false)
        let second = try await Self.run(store, "daily", ["ada"], finishing: false)
        #expect(second.map(\.runID).allSatisfy { $0 > first[0].runID })
        database.clock.advance(by: 60)
        _ = try await store.finishTaskRuns(
            second.map { TaskRunCompletion($0, owner: "w", outcome: .success, reason: nil, retryAt: nil) })
        database.clock.advance(by: 60)
        _ = try await store.finishTaskRuns(
            first.map { TaskRunCompletion($0, owner: "w", outcome: .failure, reason: "late", retryAt: nil) })
        // The later run is the chain's latest: the broken-chain check reads it, and its success is the last.
        let broken = try await store.brokenTaskChains()
        #expect(broken.map(\.id) == second.map(\.runID))
        database.clock.advance(by: 3 * Self.day)
        _ = try await store.pruneHistory(before: database.clock.now.addingTimeInterval(-Self.day), limit: 10)
        #expect(try await store.taskRuns().map(\.id) == second.map(\.runID))
        let totals = try await store.taskRunTotals()
        #expect(totals.first { $0.outcome == .success }?.lastFinishedAt == Date(iso: "2026-03-15T12:01:00Z"))
    }

    /// Rows as a database at schema 13 holds them: finished runs of several chains and outcomes (one without
    /// `periods`, as before schema 7), a run in progress, and its request.
    static let history: [TaskRunRecord] = {
        let t0 = Store.milliseconds(Date(iso: "2026-03-10T08:00:00Z"))
        func record(
            _ id: Int64, _ identifier: String, _ scope: String, started: Int64, finished: Int64?,
            _ outcome: TaskRunOutcome?, _ reason: String?, successor: Bool?, periods: Int?, attempt: Int = 1
        ) -> TaskRunRecord {
            TaskRunRecord(
                id: id, requestID: id + 100, identifier: identifier, scope: scope,
                kind: scope.isEmpty ? .processing : .refresh, attempt: attempt, worker: "host:1:a/1",
                startedAt: Store.date(milliseconds: t0 + started),
                leaseExpiresAt: Store.date(milliseconds: t0 + started + 600_000),
                finishedAt: finished.map { Store.date(milliseconds: t0 + $0) }, outcome: outcome, reason: reason,
                successorPending: successor, periods: periods)
        }
        let day: Int64 = 86_400_000
        return [
            record(1, "daily", "ada", started: 0, finished: 10, .success, nil, successor: true, periods: 1),
            record(2, "daily", "bob", started: 1_000, finished: 1_030, .success, nil, successor: true, periods: 2),
            record(
                3, "sweep", "", started: 3_000, finished: 3_050, .failure, "lease expired: worker died",
                successor: nil, periods: nil),
            record(
                4, "daily", "ada", started: day, finished: day + 20, .failure, "it's \"broken\"", successor: true,
                periods: 1),
            record(
                5, "daily", "cy", started: day + 5_000, finished: day + 6_000, .expired, "budget", successor: true,
                periods: 1),
            record(
                6, "daily", "ada", started: 2 * day, finished: 2 * day + 5, .success, nil, successor: false,
                periods: 1, attempt: 2),
            record(
                7, "sweep", "", started: 2 * day + 4_000, finished: nil, nil, nil, successor: nil, periods: nil,
                attempt: 2),
        ]
    }()

    /// `history` as SQL both databases read (the values are the test's own constants).
    static var historySQL: String {
        func value(_ date: Date?) -> String { date.map { String(Store.milliseconds($0)) } ?? "NULL" }
        func value(_ text: String?) -> String {
            text.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" } ?? "NULL"
        }
        func value(_ number: Int?) -> String { number.map(String.init) ?? "NULL" }
        let runs = history.map { run in
            "(\(run.id), \(run.requestID), \(value(run.identifier)), \(value(run.scope)), \(value(run.kind.rawValue)), "
                + "\(run.attempt), \(value(run.worker)), \(value(run.startedAt)), \(value(run.leaseExpiresAt)), "
                + "\(value(run.finishedAt)), \(value(run.outcome?.rawValue)), \(value(run.reason)), "
                + "\(run.successorPending.map { $0 ? "true" : "false" } ?? "NULL"), \(value(run.periods)))"
        }
        let open = history[6]
        return """
            INSERT INTO users (id, time_zone, created_at) VALUES ('ada', 'UTC', 0), ('bob', 'UTC', 0), ('cy', 'UTC', 0),
                ('dee', 'UTC', 0);
            INSERT INTO task_runs (id, request_id, identifier, scope, kind, attempt, worker, started_at,
                lease_expires_at, finished_at, outcome, reason, successor_pending, periods)
            VALUES \(runs.joined(separator: ", "));
            INSERT INTO task_requests (id, identifier, scope, kind, earliest_begin_at, submitted_at, attempts,
                lease_owner, lease_expires_at, claimed_at)
            VALUES (\(open.requestID), 'sweep', '', 'processing', NULL, \(value(open.startedAt)), 2, 'host:1:a/1',
                \(value(open.leaseExpiresAt)), \(value(open.startedAt)));
            """
    }

    /// What status and history read, as schema 13's statements read it from `history`: every run, the latest
    /// finished run of each chain where it broke its chain, totals by identifier and outcome, chains never started.
    @Test(
        "a database at schema 13 with runs migrates with its history, status and totals as they were",
        arguments: TestBackend.all)
    func migrationKeepsHistory(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        do { _ = try Store(path: database.path, clock: database.clock, schemaVersion: 13) }
        try Store.executeForTesting(at: database.path, Self.historySQL)
        let store = try Store(path: database.path, clock: database.clock)
        #expect(try await store.schemaVersion() == Store.latestSchemaVersion)

        #expect(try await store.taskRuns(includeUnfinished: true) == Self.history)
        #expect(try await store.taskRuns() == Self.history.filter { $0.finishedAt != nil })
        #expect(try await store.taskRuns(identifier: "daily", scope: "ada", limit: 2).map(\.id) == [4, 6])
        #expect(try await store.brokenTaskChains().map(\.id) == [6])
        let totals = try await store.taskRunTotals()
        let expected = Dictionary(grouping: Self.history.filter { $0.finishedAt != nil }) {
            "\($0.identifier) \($0.outcome!.rawValue)"
        }.values.map { runs in
            TaskRunTotal(
                identifier: runs[0].identifier, outcome: runs[0].outcome!, runs: runs.count,
                totalDuration: Double(
                    runs.reduce(0) { $0 + Store.milliseconds($1.finishedAt!) - Store.milliseconds($1.startedAt) })
                    / 1000,
                lastFinishedAt: runs.compactMap(\.finishedAt).max()!)
        }.sorted { ($0.identifier, $0.outcome.rawValue) < ($1.identifier, $1.outcome.rawValue) }
        #expect(totals == expected)
        #expect(try await store.scopesNeverSubmitted(identifier: "daily", perUser: true) == ["dee"])
        #expect(try await store.scopesNeverSubmitted(identifier: "sweep", perUser: false).isEmpty)
        #expect(try await store.scopesNeverSubmitted(identifier: "weekly", perUser: false) == [""])
        if backend == .postgresql {
            // The finished runs moved into their days' partitions; the identity goes on past them.
            #expect(try Self.count(database, "SELECT count(*) FROM task_runs_default") == 1)  // in progress
            #expect(try Self.count(database, "SELECT count(*) FROM task_runs_20260312") == 1)
        }

        // The run in progress ends when its request is reclaimed; a new run of the chain becomes its latest.
        database.clock.set(Date(iso: "2026-03-13T08:00:00Z"))
        _ = try await store.prepareRunHistory()
        let claimed = try await Self.claim(store, "sweep", as: "v")
        #expect(claimed.map(\.abandonedBy) == ["host:1:a/1"])
        #expect(claimed.allSatisfy { $0.runID > 7 })
        _ = try await store.finishTaskRuns(
            claimed.map { TaskRunCompletion($0, owner: "v", outcome: .success, reason: nil, retryAt: nil) })
        let sweep = try await store.taskRuns(identifier: "sweep")
        #expect(sweep.map(\.outcome) == [.failure, .failure, .success])
        #expect(
            try await store.taskRunTotals().first { $0.identifier == "sweep" && $0.outcome == .success }?.lastFinishedAt
                == Date(iso: "2026-03-13T08:00:00Z"))
    }

    @Test(
        "a finish reads its own runs by id, however many finished runs left dead rows in the default partition before it",
        .postgreSQL)
    func finishReadsItsOwnRuns() async throws {
        let (database, store) = try await Self.storeWithDaysPrepared(.postgresql)
        let now = Store.milliseconds(database.clock.now)
        // A night's runs already moved into today's partition, each leaving a dead row behind, under statistics
        // taken while the default partition was empty: autovacuum has not come by yet, and is kept from coming by
        // while the test runs (on a loaded machine it may take longer than autovacuum's nap).
        try Store.executeForTesting(
            at: database.path,
            """
            DO $$
            DECLARE partition regclass;
            BEGIN
                FOR partition IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'task_runs'::regclass LOOP
                    EXECUTE format('ALTER TABLE %s SET (autovacuum_enabled = false)', partition);
                END LOOP;
            END $$;
            ANALYZE task_runs_default;
            INSERT INTO task_runs (request_id, identifier, scope, kind, attempt, worker, started_at, lease_expires_at)
            SELECT g, 'earlier', 'u' || g, 'refresh', 1, 'w', 0, 1 FROM generate_series(1, 20000) AS g;
            UPDATE task_runs SET finished_at = \(now), outcome = 'success' WHERE identifier = 'earlier';
            """)
        let ids = try await Self.run(store, "daily", (0..<32).map { "u\($0)" }, finishing: false).map(\.runID)
        let rows = ids.map { "[\($0), \"success\", null, true, 1]" }.joined(separator: ",")
        let plan = try PostgreSQLConnection(url: database.path).queryUncached(
            "EXPLAIN (ANALYZE, FORMAT JSON) " + SQL.finishRuns.postgresql.text,
            ["{\(ids.map(String.init).joined(separator: ","))}", "[\(rows)]", String(now)]
        ).string(0, 0)
        let nodes = Self.planNodes(try JSONSerialization.jsonObject(with: Data(plan.utf8)))
        let most = nodes.compactMap { $0["Actual Rows"] as? Int }.max()
        #expect(most == ids.count, "a step of the finish read \(most ?? 0) rows to close \(ids.count) runs")
        #expect(!nodes.contains { $0["Node Type"] as? String == "Seq Scan" }, "a finish scanned a table")
        #expect(try await store.taskRuns(identifier: "daily").allSatisfy { $0.outcome == .success })
    }

    /// Every node of an `EXPLAIN (FORMAT JSON)` plan.
    static func planNodes(_ json: Any) -> [[String: Any]] {
        if let list = json as? [Any] { return list.flatMap(planNodes) }
        guard let object = json as? [String: Any] else { return [] }
        let node = object["Node Type"] == nil ? [] : [object]
        return node + object.values.flatMap { planNodes($0) }
    }
}
