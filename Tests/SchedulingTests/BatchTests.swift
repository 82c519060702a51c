import Domain
import Foundation
import TestSupport
import Testing

@testable import Scheduling
@testable import Storage

/// A worker claims quick runs many at a time and records them, with the writes they store with
/// their records (`BackgroundTask.storeWithRun`), in one transaction per batch.
@Suite("Runs claimed and recorded in batches", .timeLimit(.minutes(10)))
struct BatchTests {
    static let users = (0..<40).map { String(format: "user%02d", $0) }

    /// A model artifact for `scope` as a retrain would store it; `source` must be `personal` or
    /// `population` for the database to accept it.
    static func model(_ scope: TaskScope, source: String = "personal", at now: Date) -> StoredModel {
        StoredModel(
            scope: scope.user?.rawValue ?? StoredModel.populationScope, specVersion: 1, source: source,
            asOfDay: Day(containing: now, in: .utc), trainedAt: now, promoted: true, reason: "test",
            designFingerprint: nil, json: "{}")
    }

    /// A daily refresh task whose handler stores its successor and a model with its run's record,
    /// noting how many runs were open (claimed, not yet recorded) when it started.
    static func storing(
        _ harness: SchedulerHarness, openRuns: Locked<[Int]>,
        source: @escaping @Sendable (TaskScope) -> String = {
            _ in "personal"
        }, during: @escaping @Sendable (BackgroundTask) async -> Void = { _ in }
    ) -> TestTask {
        TestTask(
            identifier: "daily",
            chainStart: { scope, _ in AppRefreshTaskRequest(identifier: "daily", scope: scope) },
            handler: { task in
                let open = (try? await harness.store.taskRuns(includeUnfinished: true).count { $0.outcome == nil }) ?? 0
                openRuns.withLock { $0.append(open) }
                do {
                    try await task.submitWithRun(
                        AppRefreshTaskRequest(
                            identifier: "daily", scope: task.scope, earliestBeginDate: task.startedAt + 86_400))
                } catch {
                    task.setTaskCompleted(success: false, reason: "\(error)")
                    return
                }
                await during(task)
                task.storeWithRun(.save(model(task.scope, source: source(task.scope), at: task.startedAt)))
                task.expirationHandler = {}
                task.setTaskCompleted(success: true)
            })
    }

    /// The test configuration, with claims as large as their limit whatever the machine's speed.
    static var batching: SchedulerConfiguration {
        var configuration = SchedulerConfiguration.forTests
        configuration.claimBatchDuration = 3600
        return configuration
    }

    /// A harness with `batching` (and `budget` as the refresh budget, when given) and `users` added.
    static func harness(_ backend: TestBackend, budget: TimeInterval? = nil) async throws -> SchedulerHarness {
        var configuration = batching
        if let budget { configuration.refreshBudget = budget }
        let harness = try SchedulerHarness(backend, configuration: configuration)
        try await harness.addUsers(users)
        return harness
    }

    @Test(
        "quick runs are claimed many at a time, and each run's successor and model are stored with its record",
        arguments: TestBackend.all)
    func storedWithRecords(backend: TestBackend) async throws {
        let harness = try await Self.harness(backend)
        let openRuns = Locked<[Int]>([])
        let report = try await harness.launch([Self.storing(harness, openRuns: openRuns)])

        #expect(report.runs.count == Self.users.count)
        #expect(report.unsuccessfulRuns.isEmpty)
        // The first claim takes one request; once the worker knows its runs are quick, it takes many.
        #expect(openRuns.withLock { $0.max() ?? 0 } > 1, "every claim took a single request")
        let pending = try await harness.scheduler().pendingRequests(identifier: "daily")
        #expect(pending.count == Self.users.count)
        #expect(pending.allSatisfy { $0.earliestBeginDate == harness.now + 86_400 && $0.attempts == 0 })
        for user in Self.users {
            #expect(try await harness.store.servingModel(scope: user) != nil, "\(user) has no model")
        }
        #expect(try await harness.store.brokenTaskChains().isEmpty)
    }

    @Test(
        "a task's batch preparation gets the scopes of each batch claimed, in claim order, before the first of them runs, and at most one batch ahead",
        arguments: TestBackend.all)
    func batchPreparation(backend: TestBackend) async throws {
        let harness = try await Self.harness(backend, budget: 3600)
        // Each preparation's scopes, and for each run the preparations made before it started.
        let prepared = Locked<[[TaskScope]]>([])
        let seenByRun = Locked<[TaskScope: [[TaskScope]]]>([:])
        var task = TestTask.periodic("daily", every: 86_400)
        let run = task.handler
        task.handler = { background in
            seenByRun.withLock { $0[background.scope] = prepared.withLock { $0 } }
            await run(background)
        }
        task.prepare = { scopes in prepared.withLock { $0.append(scopes) } }
        let other = TestTask.periodic("hourly", every: 3600)
        let report = try await harness.launch([task, other])

        #expect(report.unsuccessfulRuns.isEmpty)
        let batches = prepared.withLock { $0 }
        // Only the preparing task's scopes, each once, in the order its runs ran; a batch larger than one.
        let daily = report.runs.filter { $0.identifier == "daily" }.map(\.scope)
        #expect(batches.flatMap(\.self) == daily)
        #expect(daily.count == Self.users.count)
        #expect(batches.contains { $0.count > 1 })
        // A run starts after its own batch was prepared, and before the one after next was (the next batch is
        // claimed and prepared while this one runs).
        for scope in daily {
            let seen = try #require(seenByRun.withLock { $0[scope] })
            #expect(
                seen.suffix(2).contains { $0.contains(scope) },
                "\(scope) ran before its batch was prepared, or after two more were")
        }
    }

    @Test(
        "a task's chain-start preparation gets each page of scopes whose chains start, before their chain starts",
        arguments: TestBackend.all)
    func chainStartPreparation(backend: TestBackend) async throws {
        let harness = try await Self.harness(backend)
        let pages = Locked<[[TaskScope]]>([])
        let unprepared = Locked<[TaskScope]>([])
        var task = TestTask.periodic("daily", every: 86_400)
        let start = task.chainStart
        task.chainStart = { scope, user in
            if !(pages.withLock { $0.last?.contains(scope) ?? false }) { unprepared.withLock { $0.append(scope) } }
            return try await start(scope, user)
        }
        task.prepareChainStarts = { scopes in pages.withLock { $0.append(scopes) } }
        try await harness.launch([task])

        // One page here (the users fit in one): every user's scope once, in id order, each prepared before it starts.
        #expect(pages.withLock { $0 } == [Self.users.map { TaskScope.user(.literal($0)) }])
        #expect(unprepared.withLock { $0 }.isEmpty)
        // A later launch starts no chain, and prepares none.
        try await harness.launch([task])
        #expect(pages.withLock { $0.count } == 1)
    }

    @Test(
        "claims shrink as the launch's due requests run out, to one at the end: workers finish together",
        arguments: TestBackend.all)
    func claimsShrinkAtTheEnd(backend: TestBackend) async throws {
        // A budget no batch waits half of, however loaded the machine: no claimed request is given back.
        let harness = try await Self.harness(backend, budget: 3600)
        // Each claim's requests, as the batch preparation gets them.
        let claims = Locked<[Int]>([])
        var task = Self.storing(harness, openRuns: Locked([]))
        task.prepare = { scopes in claims.withLock { $0.append(scopes.count) } }
        let report = try await harness.launch([task])

        #expect(report.runs.count == Self.users.count)
        #expect(report.unsuccessfulRuns.isEmpty)
        // Of 40 due requests the first claim takes one, and each later claim at most half of those left: 19, 10, 5,
        // 2, then one at a time (by the limit alone, 32 and the 7 left over: a second worker would wait while the 7
        // ran).
        #expect(claims.withLock { $0 } == [1, 19, 10, 5, 2, 1, 1, 1])
    }

    @Test(
        "a write the database refuses fails its run alone, saying why, and stores nothing of it; the rest of the batch is recorded",
        arguments: TestBackend.all)
    func refusedWrite(backend: TestBackend) async throws {
        let harness = try await Self.harness(backend)
        let refused = TaskScope.user(.literal("user07"))
        let task = Self.storing(harness, openRuns: Locked([])) { $0 == refused ? "bogus" : "personal" }
        let report = try await harness.launch([task])

        let failed = report.runs.filter { $0.outcome != .success }
        #expect(failed.map(\.scope) == [refused])
        #expect(failed.first?.reason?.hasPrefix("could not store what it produced: ") == true)
        #expect(report.runs.count == Self.users.count)
        #expect(try await harness.store.servingModel(scope: "user07") == nil)
        #expect(try await harness.store.servingModel(scope: "user08") != nil)
        // Its successor went with its other writes: the request itself waits for its retry.
        let waiting = try await harness.scheduler().pendingRequests(identifier: "daily", scope: refused)
        #expect(waiting.map(\.attempts) == [1])
        #expect(waiting.first?.earliestBeginDate == harness.now + 60)
    }

    @Test(
        "a claimed request that waits half its budget in its batch is given back unrun, and runs once, as its first attempt",
        arguments: TestBackend.all)
    func waitedTooLong(backend: TestBackend) async throws {
        let harness = try await Self.harness(backend)
        let slow = TaskScope.user(.literal("user05"))
        let task = Self.storing(harness, openRuns: Locked([])) { _ in
            "personal"
        } during: { task in
            // 20 s of the 30 s refresh budget: the requests claimed with this one have waited too long.
            if task.scope == slow { harness.clock.advance(by: 20) }
        }
        let report = try await harness.launch([task])

        #expect(report.unsuccessfulRuns.isEmpty)
        #expect(report.runs.count == Self.users.count)
        #expect(Set(report.runs.map(\.scope)).count == Self.users.count)
        #expect(report.runs.allSatisfy { $0.attempt == 1 }, "a given-back claim counted as an attempt")
        let history = try await harness.history("daily")
        #expect(history.count == Self.users.count, "a given-back claim left a run in the history")
        let late = try #require(history.first { $0.scope == .user(.literal("user06")) })
        #expect(late.startedAt >= harness.now, "user06 ran with the budget its first claim had left")
    }

    /// Claims of at most two make the last three batches one request each: user39 is claimed ahead while user38
    /// runs, and the claim made ahead while user39's batch runs finds nothing. user38's run waits for user39's
    /// claim, then takes 20 s of the 30 s budget: user39, claimed before, has waited too long and is given back
    /// after the last claim was made. (Checked on PostgreSQL: without the claim made again, user39 is left for the next
    /// launch.)
    @Test(
        "a request given back after the worker's last claim ahead found nothing is claimed again in the same launch",
        arguments: TestBackend.all)
    func givenBackAfterTheLastClaim(backend: TestBackend) async throws {
        var configuration = Self.batching
        configuration.claimBatchLimit = 2
        let harness = try SchedulerHarness(backend, configuration: configuration)
        try await harness.addUsers(Self.users)
        let task = Self.storing(harness, openRuns: Locked([])) { _ in
            "personal"
        } during: { task in
            guard task.scope == .user(.literal("user38")) else { return }
            // Until user39 is claimed: no due request is left unclaimed.
            func unclaimed() async -> Bool {
                let requests = (try? await harness.store.taskRequests(identifier: "daily")) ?? []
                return requests.contains { $0.leaseOwner == nil && ($0.earliestBeginAt ?? .distantPast) <= harness.now }
            }
            while await unclaimed() { await Task.yield() }
            harness.clock.advance(by: 20)
        }
        let report = try await harness.launch([task])

        #expect(report.unsuccessfulRuns.isEmpty)
        #expect(Set(report.runs.map(\.scope)) == Set(Self.users.map { .user(.literal($0)) }))
        #expect(report.runs.allSatisfy { $0.attempt == 1 }, "a given-back claim counted as an attempt")
        #expect(try await harness.history("daily").count == Self.users.count)
    }

    @Test(
        "a run that lost its lease stores none of its writes; a claim given back is pending again, uncounted",
        arguments: TestBackend.all)
    func lostLeaseAndRelease(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada", "bob"])
        let daily = TestTask.periodic("daily", every: 86_400)
        try await harness.launch([daily], plan: LaunchPlan(identifiers: [], jobs: 1))  // the chains only
        func claim(_ owner: String, limit: Int) async throws -> [ClaimedTaskRequest] {
            try await harness.store.claimTaskRequests(
                TaskClaim(
                    owner: owner, refreshLease: 40, processingLease: 610, isOnExternalPower: true,
                    hasNetworkConnectivity: true, identifiers: ["daily"], scope: nil, limit: limit))
        }
        let first = try await claim("host:1:a/1", limit: 2)
        try #require(first.count == 2)
        harness.clock.advance(by: 41)
        let second = try await claim("host:2:b/1", limit: 1)  // takes over the first claim's ada or bob
        try #require(second.count == 1)
        let lost = try #require(first.first { $0.request.id == second[0].request.id })
        let kept = try #require(first.first { $0.request.id != second[0].request.id })

        let model = Self.model(.user(.literal(lost.request.scope)), at: harness.now)
        let finishes = try await harness.store.finishTaskRuns(
            [
                TaskRunCompletion(
                    lost, owner: "host:1:a/1", outcome: .success, reason: nil, retryAt: nil, writes: [.save(model)])
            ],
            releasing: [TaskClaimRelease(kept, owner: "host:1:a/1")])
        #expect(finishes == [.leaseLost])
        #expect(try await harness.store.servingModel(scope: lost.request.scope) == nil)

        let requests = try await harness.store.taskRequests(identifier: "daily", scope: kept.request.scope)
        #expect(requests.map(\.leaseOwner) == [nil])
        #expect(requests.map(\.attempts) == [0])
        let runs = try await harness.store.taskRuns(scope: kept.request.scope, includeUnfinished: true)
        #expect(runs.isEmpty, "the given-back claim's run is still in the history")
    }

    @Test(
        "a batch's messages are queued with their runs' records, one per user, kind and day: the first of two, none over one queued before",
        arguments: TestBackend.all)
    func messagesWithRecords(backend: TestBackend) async throws {
        let harness = try await Self.harness(backend)
        try await harness.launch(
            [TestTask.periodic("daily", every: 86_400)], plan: LaunchPlan(identifiers: [], jobs: 1))
        let today = Day(containing: harness.now, in: .utc)
        try await harness.store.post(
            NewOutboxMessage(user: .literal("user00"), kind: "note", day: today, body: "earlier"))
        let claimed = try await harness.store.claimTaskRequests(
            TaskClaim(
                owner: "w", refreshLease: 600, processingLease: 600, isOnExternalPower: true,
                hasNetworkConnectivity: true, identifiers: ["daily"], scope: nil, limit: Self.users.count))
        try #require(claimed.count == Self.users.count)
        // Each run posts its user's note, and user01's run a second note for user02 too.
        let finishes = try await harness.store.finishTaskRuns(
            claimed.map { claim in
                var writes: [TaskRunWrite] = [
                    .post(NewOutboxMessage(user: .literal(claim.request.scope), kind: "note", day: today, body: "run"))
                ]
                if claim.request.scope == "user01" {
                    writes.insert(
                        .post(NewOutboxMessage(user: .literal("user02"), kind: "note", day: today, body: "first")),
                        at: 0)
                }
                return TaskRunCompletion(
                    claim, owner: "w", outcome: .success, reason: nil, retryAt: nil, writes: writes)
            })
        #expect(finishes.allSatisfy { $0 == .recorded(successorPending: false) })
        let messages = try await harness.store.outboxMessages()
        #expect(messages.count == Self.users.count)
        #expect(Set(messages.map(\.user.rawValue)) == Set(Self.users))
        let bodies = Dictionary(messages.map { ($0.user.rawValue, $0.body) }, uniquingKeysWith: { $1 })
        #expect(bodies["user00"] == "earlier")
        #expect(
            bodies["user02"]
                == (claimed.firstIndex { $0.request.scope == "user01" }! < claimed.firstIndex {
                    $0.request.scope == "user02"
                }! ? "first" : "run"))
        #expect(bodies.filter { $0.key != "user00" && $0.key != "user02" }.values.allSatisfy { $0 == "run" })
    }

    /// Two launches at once (cron on two hosts) page through the same users without a request: on PostgreSQL each
    /// skips a page the other is starting, and a later launch starts what was skipped; SQLite's one writer makes
    /// the pages take turns, so a page is never held.
    @Test(
        "a page of chain starts another launch holds is left to it, and started by a later launch",
        arguments: TestBackend.all)
    func heldChainStarts(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend, configuration: Self.batching)
        let page = TaskScheduler.chainStartsPerTransaction
        let users = (0..<(page + 40)).map { String(format: "u%05d", $0) }
        try await harness.addUsers(users)
        let other = try Store(path: harness.database.path, clock: harness.clock)
        #expect(try await other.claimChainStarts(identifier: "daily", from: .literal(users[0])))
        // Another database of the same server (a schema of its own) does not share the page.
        let stranger = TestDatabase(backend)
        let strangerStore = try Store(path: stranger.path, clock: stranger.clock)
        #expect(try await strangerStore.claimChainStarts(identifier: "daily", from: .literal(users[0])))
        let task = TestTask.periodic("daily", every: 86_400)

        let first = try await harness.launch([task])
        let held = backend == .postgresql ? page : 0
        #expect(first.startedChains == users.count - held)
        let pending = try await harness.scheduler().pendingRequests(identifier: "daily")
        #expect(Set(pending.map(\.scope)) == Set(users.dropFirst(held).map { TaskScope.user(.literal($0)) }))

        try await other.releaseChainStarts(identifier: "daily", from: .literal(users[0]))
        let second = try await harness.launch([task])
        #expect(second.startedChains == held)
        #expect(try await harness.scheduler().pendingRequests(identifier: "daily").count == users.count)
    }

    /// Before, a first launch over a cohort claimed its tens of thousands of new requests with the statistics of an
    /// empty table, until autovacuum analyzed it (docs/benchmarks.md has the times).
    @Test(
        "a launch that starts a thousand chains or more refreshes the requests' statistics before it claims; a few do not",
        .postgreSQL)
    func requestStatisticsAfterManyChains() async throws {
        let task = TestTask.periodic("daily", every: 86_400)
        let analyzed = { (harness: SchedulerHarness, atLeast: Int) in
            // The planner's count of requests: -1 until the table is analyzed.
            try Store.executeForTesting(
                at: harness.database.path,
                """
                DO $$ BEGIN
                    IF (SELECT reltuples FROM pg_class WHERE oid = 'task_requests'::regclass) < \(atLeast) THEN
                        RAISE EXCEPTION 'task_requests analyzed with fewer than \(atLeast) rows';
                    END IF;
                END $$
                """)
        }
        let many = try SchedulerHarness(.postgresql)
        try await many.addUsers((0..<TaskScheduler.requestsWorthStatistics).map { "user\($0)" })
        try await many.launch([task], plan: LaunchPlan(identifiers: [], jobs: 1))
        try analyzed(many, TaskScheduler.requestsWorthStatistics)

        let few = try SchedulerHarness(.postgresql)
        try await few.addUsers(Self.users)
        try await few.launch([task], plan: LaunchPlan(identifiers: [], jobs: 1))
        #expect(throws: StorageError.self, "40 chains do not pay for an ANALYZE") { try analyzed(few, 0) }
    }

    /// Before, each page of chain starts was planned for the requests as they were before the launch (none, or
    /// another task's), and read every request of its task: a first launch took time in the square of its users.
    @Test(
        "while a launch starts many chains, the planner never expects fewer than a quarter of a task's requests",
        .postgreSQL)
    func requestStatisticsWhileChainsStart() async throws {
        let harness = try SchedulerHarness(.postgresql)
        try await harness.addUsers((0..<5_000).map { String(format: "u%05d", $0) })
        // The tasks of the pages planned for far fewer requests than there were.
        let misjudged = Locked<[String]>([])
        let path = harness.database.path
        let tasks = [TestTask.periodic("daily", every: 86_400), TestTask.periodic("hourly", every: 3_600)].map {
            var task = $0
            let identifier = task.identifier.rawValue
            // Before each page of chain starts: the planner's count of the task's requests against the count.
            task.prepareChainStarts = { _ in
                do {
                    try Store.executeForTesting(
                        at: path,
                        """
                        DO $$ DECLARE plan json; actual bigint; BEGIN
                            SELECT count(*) INTO actual FROM task_requests WHERE identifier = '\(identifier)';
                            EXECUTE 'EXPLAIN (FORMAT JSON) SELECT 1 FROM task_requests WHERE identifier = ''\(identifier)'''
                                INTO plan;
                            IF actual >= \(TaskScheduler.requestsWorthStatistics)
                                AND (plan -> 0 -> 'Plan' ->> 'Plan Rows')::float * 4 < actual THEN
                                RAISE EXCEPTION '\(identifier): planned for % of % requests',
                                    plan -> 0 -> 'Plan' ->> 'Plan Rows', actual;
                            END IF;
                        END $$
                        """)
                } catch {
                    misjudged.withLock { $0.append(identifier) }
                }
            }
            return task
        }
        let report = try await harness.launch(tasks, plan: LaunchPlan(identifiers: [], jobs: 1))
        #expect(report.startedChains == 10_000)
        #expect(misjudged.withLock { $0 } == [])
    }

    @Test(
        "a launch over more users than its lists hold starts every chain a page at a time, counts every run and keeps the latest",
        arguments: TestBackend.all)
    func boundedReport(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend, configuration: Self.batching)
        let count = LaunchReport.listLimit + 300
        try await harness.addUsers((0..<count).map { String(format: "u%05d", $0) })
        let report = try await harness.launch([TestTask.periodic("daily", every: 86_400)])

        #expect(report.startedChains == count)
        #expect(report.runCount == count && report.outcomes == [.success: count])
        #expect(report.runs.count == LaunchReport.listLimit)
        let history = try await harness.history("daily")
        #expect(history.count == count)
        #expect(Set(report.runs.map(\.scope)).count == LaunchReport.listLimit, "a run is listed twice")
        #expect(try await harness.scheduler().pendingRequests(identifier: "daily").count == count)
    }
}
