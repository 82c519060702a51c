import Domain
import Foundation
import Scheduling
import TestSupport
import Testing

/// Budgets run out on the manual clock: a test waits until its handler is running, advances the
/// timer past the budget, and the scheduler's expiry fires then — no sleeping. The timer checks the
/// clock both when a run starts waiting and when it fires, so the order of the two does not matter.
@Suite("Expiry and completion", .timeLimit(.minutes(10)))
struct ExpiryTests {
    /// A refresh task that submits its successor, lets `prepare` set up the task, signals `started`,
    /// then waits until it is cancelled and calls `afterCancel`.
    static func blocking(
        started: Gate, prepare: @escaping @Sendable (BackgroundTask) -> Void = { _ in },
        afterCancel: @escaping @Sendable (BackgroundTask) -> Void = { _ in }
    ) -> TestTask {
        TestTask(
            identifier: "refresh",
            chainStart: { scope, _ in AppRefreshTaskRequest(identifier: "refresh", scope: scope) },
            handler: { task in
                _ = try? await task.scheduler.submit(
                    AppRefreshTaskRequest(
                        identifier: "refresh", scope: task.scope, earliestBeginDate: task.startedAt + 4 * 3600),
                    policy: .replace)
                prepare(task)
                started.open()
                await Gate().waitOrCancellation()
                afterCancel(task)
            })
    }

    @Test(
        "at expiry the expiration handler is called and the work is cancelled; without completion the run expired",
        arguments: TestBackend.all)
    func expirationHandlerCalled(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada"])
        let (started, expirationCalled, cancelled) = (Gate(), Gate(), Gate())
        let task = Self.blocking(
            started: started, prepare: { $0.expirationHandler = { expirationCalled.open() } },
            afterCancel: { _ in if Task.isCancelled { cancelled.open() } })
        async let launched = harness.launch([task])
        await started.waitOrCancellation()
        #expect(!expirationCalled.isOpen)
        harness.timer.advance(by: 30)
        let report = try await launched
        #expect(expirationCalled.isOpen)
        #expect(cancelled.isOpen)
        let run = try #require(report.runs.first)
        #expect(run.outcome == .expired)
        #expect(run.reason?.contains("30 s budget") == true)
        #expect(run.finishedAt == run.startedAt.addingTimeInterval(30))
        #expect(try await harness.history().map(\.outcome) == [.expired])
    }

    /// DESIGN §8, bug 10. Checked by making a run without an expiration handler succeed at expiry in
    /// `TaskExecution.run`: this test and the budget test failed.
    @Test(
        "a task without an expiration handler is marked unsuccessful at expiry and retried", arguments: TestBackend.all)
    func noExpirationHandler(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada"])
        let started = Gate()
        async let launched = harness.launch([Self.blocking(started: started)])
        await started.waitOrCancellation()
        harness.timer.advance(by: 30)
        let run = try #require(try await launched.runs.first)
        #expect(run.outcome == .expired)
        #expect(run.reason?.contains("no expiration handler") == true)
        // Retried: the successor the handler submitted is moved up to the first backoff.
        let pending = try #require(try await harness.scheduler().pendingRequests().first)
        #expect(pending.earliestBeginDate == harness.now.addingTimeInterval(60))
        #expect(pending.attempts == 1)
    }

    @Test(
        "an expiration handler that completes the task decides the outcome: success counts, failure expired",
        arguments: TestBackend.all)
    func expirationHandlerCompletes(backend: TestBackend) async throws {
        for success in [true, false] {
            let harness = try SchedulerHarness(backend)
            try await harness.addUsers(["ada"])
            let started = Gate()
            let task = Self.blocking(
                started: started,
                prepare: { task in
                    task.expirationHandler = { task.setTaskCompleted(success: success, reason: "stopped early") }
                })
            async let launched = harness.launch([task])
            await started.waitOrCancellation()
            harness.timer.advance(by: 30)
            let run = try #require(try await launched.runs.first)
            #expect(run.outcome == (success ? .success : .expired))
            #expect(run.reason?.contains("stopped early") == true)
        }
    }

    @Test(
        "a processing task gets ten minutes by default, and the plan's budget overrides it", arguments: TestBackend.all)
    func budgets(backend: TestBackend) async throws {
        for (plannedBudget, expected) in [(nil, 600.0), (90.0, 90.0)] as [(TimeInterval?, TimeInterval)] {
            let harness = try SchedulerHarness(backend)
            try await harness.addUsers(["ada"])
            let started = Gate()
            let budget = Locked<TimeInterval>(0)
            let task = TestTask(
                identifier: "processing",
                chainStart: { scope, _ in ProcessingTaskRequest(identifier: "processing", scope: scope) },
                handler: { task in
                    budget.withLock { $0 = task.budget }
                    started.open()
                    await Gate().waitOrCancellation()
                })
            async let launched = harness.launch([task], plan: LaunchPlan(budget: plannedBudget, jobs: 1))
            await started.waitOrCancellation()
            // Just before the budget nothing happens; at the budget the run expires.
            #expect(harness.timer.advance(by: expected - 1) == 0)
            harness.timer.advance(by: 1)
            let run = try #require(try await launched.runs.first)
            #expect(budget.withLock { $0 } == expected)
            #expect(run.outcome == .expired)
            #expect(run.finishedAt == run.startedAt.addingTimeInterval(expected))
        }
    }

    @Test(
        "a handler that returns without completing is waited for until its budget runs out, then marked unsuccessful",
        arguments: TestBackend.all)
    func returnsWithoutCompleting(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada"])
        let returned = Gate()
        let task = TestTask(
            identifier: "refresh",
            chainStart: { scope, _ in AppRefreshTaskRequest(identifier: "refresh", scope: scope) },
            handler: { task in
                task.expirationHandler = {}
                returned.open()
            })
        async let launched = harness.launch([task])
        await returned.waitOrCancellation()
        harness.timer.advance(by: 30)
        let run = try #require(try await launched.runs.first)
        #expect(run.outcome == .expired)
        #expect(run.reason?.contains("returned without calling setTaskCompleted") == true)
        #expect(run.finishedAt == run.startedAt.addingTimeInterval(30))
    }

    /// The supervisor is woken by a completion only once the handler has returned; this is the case
    /// where it must be. Checked by never sending that completion in `BackgroundTask.setTaskCompleted`:
    /// the run then waited for its budget, which this test never advances, until the time limit. (No
    /// shorter limit of its own: in the whole suite a minute was not always enough to get a thread.)
    @Test(
        "a handler that completes the task after returning ends the run then, not at its budget",
        arguments: TestBackend.all)
    func completesAfterReturning(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada"])
        let (returned, complete) = (Gate(), Gate())
        let task = TestTask(
            identifier: "refresh",
            chainStart: { scope, _ in AppRefreshTaskRequest(identifier: "refresh", scope: scope) },
            handler: { task in
                task.expirationHandler = {}
                Task {
                    await complete.waitOrCancellation()
                    task.setTaskCompleted(success: true, reason: "finished in the background")
                }
                returned.open()
            })
        async let launched = harness.launch([task])
        await returned.waitOrCancellation()
        complete.open()
        let run = try #require(try await launched.runs.first)
        #expect(run.outcome == .success)
        #expect(run.reason == "finished in the background")
        #expect(run.finishedAt == run.startedAt)
    }

    /// DESIGN §8, bug 10. Checked by letting a later `setTaskCompleted` overwrite the first in
    /// `BackgroundTask`: the run was recorded as a failure and this test failed.
    @Test(
        "setTaskCompleted counts once: later calls are ignored and logged, also after the run ended",
        arguments: TestBackend.all)
    func doubleCompletion(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada"])
        let kept = Locked<BackgroundTask?>(nil)
        let task = TestTask(
            identifier: "refresh",
            chainStart: { scope, _ in AppRefreshTaskRequest(identifier: "refresh", scope: scope) },
            handler: { task in
                _ = try? await task.scheduler.submit(
                    AppRefreshTaskRequest(
                        identifier: "refresh", scope: task.scope, earliestBeginDate: task.startedAt + 3600),
                    policy: .replace)
                task.expirationHandler = {}
                task.setTaskCompleted(success: true)
                task.setTaskCompleted(success: false)
                kept.withLock { $0 = task }
            })
        let report = try await harness.launch([task])
        try #require(kept.withLock { $0 }).setTaskCompleted(success: false)
        #expect(report.runs.map(\.outcome) == [.success])
        #expect(try await harness.history().map(\.outcome) == [.success])
        let ignored = harness.log.lines(atLeast: .warning).filter { $0.contains("called again; ignored") }
        #expect(ignored.count == 2)
        // The success stood: the request is gone and only the successor is pending.
        #expect(try await harness.scheduler().pendingRequests().map(\.attempts) == [0])
    }

    @Test("a run that reports failure is recorded as a failure with its reason", arguments: TestBackend.all)
    func reportedFailure(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada"])
        let task = TestTask(
            identifier: "refresh",
            chainStart: { scope, _ in AppRefreshTaskRequest(identifier: "refresh", scope: scope) },
            handler: { task in task.setTaskCompleted(success: false, reason: "the upstream was down") })
        let run = try #require(try await harness.launch([task]).runs.first)
        #expect(run.outcome == .failure)
        #expect(run.reason == "the upstream was down")
    }
}
