import Domain
import Foundation
import Scheduling
import Storage
import TestSupport
import Testing

@Suite("Retries end, launches are recorded, history is pruned", .timeLimit(.minutes(10)))
struct RetryLimitTests {
    /// A configuration with exact delays (no jitter) and three attempts.
    static func threeAttempts() -> SchedulerConfiguration {
        var configuration = SchedulerConfiguration()
        configuration.retryJitter = 0
        configuration.maxAttempts = 3
        return configuration
    }

    @Test(
        "a request that fails on its last attempt is discarded, flagged, keeps its chain stopped, and retry puts it back",
        arguments: TestBackend.all)
    func discardedAfterMaxAttempts(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend, configuration: Self.threeAttempts())
        try await harness.addUsers(["ada"])
        let task = TestTask(
            identifier: "daily",
            chainStart: { scope, _ in AppRefreshTaskRequest(identifier: "daily", scope: scope) },
            handler: { task in task.setTaskCompleted(success: false, reason: "the upstream refused") })
        for attempt in 1...3 {
            let report = try await harness.launch([task])
            #expect(report.runs.map(\.attempt) == [attempt])
            #expect(report.discarded.count == (attempt == 3 ? 1 : 0))
            harness.clock.advance(by: 3600)
        }
        #expect(try await harness.scheduler().pendingRequests().isEmpty)
        let discarded = try await harness.store.discardedTaskRequests()
        #expect(discarded.count == 1)
        #expect(discarded.first?.cause == .attempts)
        #expect(discarded.first?.request.attempts == 3)
        #expect(discarded.first?.request.lastError == "the upstream refused; discarded after 3 attempts")
        #expect(try await harness.history().last?.reason == "the upstream refused; discarded after 3 attempts")

        // A later launch neither runs it nor starts the chain again: it waits for a person.
        let later = try await harness.launch([task])
        #expect(later.startedChains == 0)
        #expect(later.runs.isEmpty)
        let status = try await harness.scheduler().status(of: [("daily", .everyUser)])
        #expect(status.discardedRequests == 1)
        #expect(status.hasProblems)

        let retried = try await harness.store.retryDiscardedTaskRequests(ids: nil, identifier: nil, scope: nil)
        #expect(retried.count == 1)
        let pending = try await harness.scheduler().pendingRequests()
        #expect(pending.count == 1)
        #expect(pending.first?.attempts == 0)
        #expect(pending.first.map { $0.isDue(at: harness.now) } == true)
        #expect(try await harness.store.discardedTaskRequests().isEmpty)
        #expect(try await harness.launch([task]).runs.map(\.attempt) == [1])
    }

    @Test(
        "with its successor pending, a request's last failed attempt is discarded and the chain goes on at its cadence",
        arguments: TestBackend.all)
    func discardKeepsSuccessor(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend, configuration: Self.threeAttempts())
        try await harness.addUsers(["ada"])
        let task = TestTask.periodic("daily", every: 86_400, success: false)
        for attempt in 1...3 {
            #expect(try await harness.launch([task]).runs.map(\.attempt) == [attempt])
            guard attempt < 3 else { break }
            let retry = try #require(try await harness.scheduler().pendingRequests().first?.earliestBeginDate)
            harness.clock.advance(by: retry.timeIntervalSince(harness.now))
        }
        #expect(try await harness.store.discardedTaskRequests().count == 1)
        let successor = try #require(try await harness.scheduler().pendingRequests().first)
        #expect(successor.attempts == 0)
        // The successor kept its own date, a day after the period it followed.
        #expect(successor.earliestBeginDate.map { $0 > harness.now.addingTimeInterval(3600) } == true)
    }

    @Test("jitter spreads the retries of requests that failed together, the same way on a replay")
    func jitterSpreadsRetries() async throws {
        var configuration = SchedulerConfiguration()
        configuration.retryBaseDelay = 60
        let harness = try SchedulerHarness(.sqlite, configuration: configuration)
        let users = (1...40).map { "user\($0)" }
        try await harness.addUsers(users)
        let task = TestTask(
            identifier: "daily",
            chainStart: { scope, _ in AppRefreshTaskRequest(identifier: "daily", scope: scope) },
            handler: { task in task.setTaskCompleted(success: false, reason: "outage") })
        #expect(try await harness.launch([task]).runs.count == 40)
        let delays = try await harness.scheduler().pendingRequests().compactMap {
            $0.earliestBeginDate?.timeIntervalSince(harness.now)
        }
        #expect(delays.count == 40)
        // Each within the window [d − d·jitter/2, d + d·jitter/2) around d = 60 s …
        #expect(delays.allSatisfy { $0 >= 45 && $0 < 75 })
        // … and spread over it: 40 requests do not share a handful of instants.
        #expect(Set(delays).count >= 30)
        #expect((delays.max() ?? 0) - (delays.min() ?? 0) > 15)
        // Deterministic per request and attempt, so a replay schedules the same retries.
        #expect(
            configuration.retryDelay(afterAttempt: 3, unit: 0.25)
                == configuration.retryDelay(afterAttempt: 3, unit: 0.25))
        #expect(configuration.retryDelay(afterAttempt: 1, unit: 0.5) == 60)
        #expect(configuration.retryDelay(afterAttempt: 1, unit: 0) == 45)
    }

    @Test("a run after missed launches records how many periods it covered", arguments: TestBackend.all)
    func catchUpPeriods(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada"])
        var task = TestTask.periodic("hourly", every: 3600)
        task.cadence = 3600
        #expect(try await harness.launch([task]).runs.map(\.periods) == [1])
        // The successor was due an hour later; the next launch comes 5.5 h later: that period and
        // the four after it were missed, the run covers five.
        harness.clock.advance(by: 5.5 * 3600)
        #expect(try await harness.launch([task]).runs.map(\.periods) == [5])
        #expect(try await harness.history().map(\.periods) == [1, 5])
    }

    @Test(
        "every launch records itself, and status flags a request due for longer than its cadence",
        arguments: TestBackend.all)
    func lastLaunchAndOverdue(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada"])
        let task = TestTask.periodic("hourly", every: 3600)
        let started = harness.now
        try await harness.launch([task])
        let cadences: [TaskIdentifier: TimeInterval] = ["hourly": 3600]
        var status = try await harness.scheduler().status(of: [("hourly", .everyUser)], cadences: cadences)
        #expect(status.lastLaunch?.launchedAt == started)
        #expect(status.overdue.isEmpty)
        #expect(!status.hasProblems)

        // No launch for a week: the successor has been due for far longer than an hour.
        harness.clock.advance(by: 7 * 86_400)
        status = try await harness.scheduler().status(of: [("hourly", .everyUser)], cadences: cadences)
        #expect(status.lastLaunch?.launchedAt == started)
        #expect(status.overdue.map(\.identifier) == ["hourly"])
        #expect(status.overdue.first?.oldestDueAt == started.addingTimeInterval(3600))
        #expect(status.hasProblems)

        // The next launch catches up; one a minute later finds nothing to run and still counts.
        try await harness.launch([task])
        harness.clock.advance(by: 60)
        #expect(try await harness.launch([task]).runs.isEmpty)
        status = try await harness.scheduler().status(of: [("hourly", .everyUser)], cadences: cadences)
        #expect(status.lastLaunch?.launchedAt == harness.now)
        #expect(status.overdue.isEmpty)
    }

    @Test(
        "a processing request waiting on unmet conditions for more than a day is flagged, with what is missing",
        arguments: TestBackend.all)
    func waitingOnConditions(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada"])
        harness.conditions.set(DeviceConditions(isOnExternalPower: false, hasNetworkConnectivity: true))
        let task = TestTask(
            identifier: "processing",
            chainStart: { scope, _ in
                ProcessingTaskRequest(identifier: "processing", scope: scope, requiresExternalPower: true)
            },
            handler: { task in task.setTaskCompleted(success: true) })
        #expect(try await harness.launch([task]).runs.isEmpty)
        harness.clock.advance(by: 86_400 - 60)
        var status = try await harness.scheduler().status(of: [("processing", .everyUser)])
        #expect(status.waitingOnConditions.isEmpty)
        harness.clock.advance(by: 120)
        status = try await harness.scheduler().status(of: [("processing", .everyUser)])
        #expect(status.waitingOnConditions.map(\.identifier) == ["processing"])
        #expect(status.waitingOnConditions.first?.unmet == ["external power"])
        #expect(status.hasProblems)
    }

    @Test(
        "launches prune runs older than the retention; each chain's latest run and last success stay in history and status",
        arguments: TestBackend.all)
    func pruning(backend: TestBackend) async throws {
        var configuration = SchedulerConfiguration()
        configuration.historyRetention = 2 * 86_400
        let harness = try SchedulerHarness(backend, configuration: configuration)
        try await harness.addUsers(["ada"])
        let tasks = [TestTask.periodic("hourly", every: 3600), TestTask.periodic("daily", every: 100 * 86_400)]
        let registered: [(identifier: TaskIdentifier, scope: ChainScope)] = [
            ("hourly", .everyUser), ("daily", .everyUser),
        ]
        // The first day, from 12:00: twelve hourly runs and the one run of "daily".
        for _ in 0..<12 {
            try await harness.launch(tasks)
            harness.clock.advance(by: 3600)
        }
        let daily = try await harness.history("daily")
        #expect(daily.count == 1)
        #expect(try await harness.history("hourly").count == 12)
        let before = try await harness.scheduler().status(of: registered)

        // Four days later a launch runs "hourly" once and prunes what is older than two days: all of the first
        // day, "daily"'s run too (on SQLite one by one, on PostgreSQL the day's partition at once).
        harness.clock.advance(by: 4 * 86_400)
        let report = try await harness.launch(tasks)
        #expect(report.runs.count == 1)
        #expect(report.pruned.runs == 13)
        let hourly = try await harness.history("hourly")
        #expect(hourly.count == 1)
        #expect(hourly.allSatisfy { $0.startedAt >= harness.now.addingTimeInterval(-2 * 86_400) })
        // "daily"'s run is still its chain's latest: history shows it, status reads its success and sees its
        // chain continue.
        #expect(try await harness.history("daily") == daily)
        let after = try await harness.scheduler().status(of: registered)
        func lastSuccess(_ status: SchedulerStatus, _ identifier: TaskIdentifier) -> Date? {
            status.tasks.first { $0.identifier == identifier }?.lastSuccess
        }
        #expect(lastSuccess(after, "daily") != nil)
        #expect(lastSuccess(after, "daily") == lastSuccess(before, "daily"))
        #expect(lastSuccess(after, "hourly") == hourly.last?.finishedAt)
        #expect(after.neverSubmitted.isEmpty)
        #expect(after.brokenChains.isEmpty)
        #expect(!after.hasProblems)
    }

    /// Pruning keeps up: a launch deletes old rows one by one up to `pruneLimit` or twice the runs it recorded,
    /// whichever is more, so history written faster than `pruneLimit` per launch is still taken out as fast as it
    /// comes (on PostgreSQL the old days go whole besides).
    @Test(
        "a launch prunes at least twice the runs it recorded, so pruning keeps up with any rate of runs",
        arguments: TestBackend.all)
    func pruningKeepsUp(backend: TestBackend) async throws {
        var configuration = SchedulerConfiguration()
        configuration.historyRetention = 86_400
        configuration.pruneLimit = 1
        let harness = try SchedulerHarness(backend, configuration: configuration)
        let users = (0..<10).map { "user\($0)" }
        try await harness.addUsers(users)
        let tasks = [TestTask.periodic("hourly", every: 3600)]
        // A day of ten users' hourly runs: 30 runs.
        for _ in 0..<3 {
            try await harness.launch(tasks)
            harness.clock.advance(by: 3600)
        }
        #expect(try await harness.store.taskRuns().count == 30)
        harness.clock.advance(by: 3 * 86_400)
        // Ten runs recorded: twenty old ones pruned, not one (SQLite); the whole old day (PostgreSQL).
        let report = try await harness.launch(tasks)
        #expect(report.runs.count == 10)
        #expect(report.pruned.runs == (backend == .sqlite ? 20 : 30))
        let next = try await harness.launch(tasks)
        #expect(next.runs.isEmpty)
        harness.clock.advance(by: 3600)
        let third = try await harness.launch(tasks)
        #expect(third.pruned.runs == (backend == .sqlite ? 10 : 0))
        let runs = try await harness.store.taskRuns()
        #expect(runs.count == 20)
        #expect(runs.allSatisfy { $0.startedAt >= harness.now.addingTimeInterval(-86_400) })
    }

    @Test(
        "pruning takes old acknowledged messages, requeued dead letters and discarded requests, never waiting ones",
        arguments: TestBackend.all)
    func pruningKinds(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend, configuration: Self.threeAttempts())
        try await harness.addUsers(["ada", "bob"])
        let store = harness.store
        let sent = try #require(
            try await store.post(NewOutboxMessage(user: .ada, kind: "note", day: .literal("2026-03-15"), body: "sent")))
        _ = try await store.post(
            NewOutboxMessage(user: .bob, kind: "note", day: .literal("2026-03-15"), body: "waiting"))
        _ = try await store.acknowledgeOutboxMessages([sent])
        var letters: [Int64] = []
        for user in [UserID.ada, .bob] {
            let id = try await store.enqueue(
                WatchSubmission(user: user, kind: "symptomLog", payload: "{}", enqueuedAt: harness.now))
            for _ in 0..<WatchItem.maxAttempts { try await store.recordFailure(watchItem: id, error: "bad") }
            letters.append(id)
        }
        _ = try await store.requeueDeadLetters(ids: [letters[0]], user: nil)
        try await store.submit(
            [
                NewTaskRequest(identifier: "daily", scope: "ada", kind: .refresh, earliestBeginAt: nil),
                NewTaskRequest(identifier: "hourly", scope: "bob", kind: .refresh, earliestBeginAt: nil),
            ], replacing: false)
        let requests = try await store.taskRequests()
        let daily = try #require(requests.first { $0.identifier == "daily" })
        let hourly = try #require(requests.first { $0.identifier == "hourly" })
        _ = try await store.cancelTaskRequests(ids: [hourly.id], identifier: nil, scope: nil)
        // The daily request fails three times and is discarded.
        let task = TestTask(
            identifier: "daily",
            chainStart: { scope, _ in AppRefreshTaskRequest(identifier: "daily", scope: scope) },
            handler: { task in task.setTaskCompleted(success: false, reason: "no") })
        for _ in 0..<3 {
            try await harness.launch([task], plan: LaunchPlan(scope: .user(.ada), jobs: 1))
            harness.clock.advance(by: 3600)
        }
        #expect(try await store.discardedTaskRequests().map(\.request.id).sorted() == [daily.id, hourly.id].sorted())

        // Not yet past the retention: nothing goes.
        #expect(try await store.pruneHistory(before: harness.now.addingTimeInterval(-86_400), limit: 10).total == 0)
        harness.clock.advance(by: 2 * 86_400)
        let pruned = try await store.pruneHistory(before: harness.now.addingTimeInterval(-86_400), limit: 10)
        #expect(pruned.outboxMessages == 1)
        #expect(pruned.deadLetters == 1)
        #expect(pruned.discardedRequests == 1)
        // Kept: the unacknowledged message, the dead letter still waiting, the cancelled request.
        #expect(try await store.outboxMessages(user: nil, includeAcknowledged: true).map(\.body) == ["waiting"])
        #expect(try await store.deadLetters(user: nil, includeResolved: true).map(\.item.id) == [letters[1]])
        #expect(try await store.discardedTaskRequests().map(\.cause) == [.cancelled])
    }
}
