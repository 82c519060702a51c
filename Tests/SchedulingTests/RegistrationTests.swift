import Domain
import Foundation
import Scheduling
import TestSupport
import Testing

@Suite("Registering handlers", .timeLimit(.minutes(10)))
struct RegistrationTests {
    let noop: TaskHandler = { task in task.setTaskCompleted(success: true) }
    let start: ChainStart = { scope, _ in AppRefreshTaskRequest(identifier: "daily", scope: scope) }

    @Test(
        "an identifier outside the permitted list is refused with an error that names it, and nothing runs",
        arguments: TestBackend.all)
    func unpermitted(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada"])
        let noop = self.noop
        await #expect {
            try await harness.scheduler().launch(LaunchPlan(jobs: 1)) { registrar throws(SchedulingError) in
                try registrar.register(
                    "not-listed", for: .everyUser,
                    startingWith: { scope, _ in AppRefreshTaskRequest(identifier: "not-listed", scope: scope) },
                    using: noop)
            }
        } throws: { error in
            guard case SchedulingError.notPermitted(let identifier) = error else { return false }
            return identifier == "not-listed" && "\(error)".contains("'not-listed'")
        }
        #expect(try await harness.scheduler().pendingRequests().isEmpty)
        #expect(try await harness.history().isEmpty)
    }

    @Test("registering an identifier twice is refused with an error that names it", arguments: TestBackend.all)
    func twice(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        let (noop, start) = (self.noop, self.start)
        await #expect {
            try await harness.scheduler().launch { registrar throws(SchedulingError) in
                try registrar.register("daily", for: .everyUser, startingWith: start, using: noop)
                try registrar.register("daily", for: .everyUser, startingWith: start, using: noop)
            }
        } throws: { error in
            guard case SchedulingError.alreadyRegistered(let identifier) = error else { return false }
            return identifier == "daily" && "\(error)".contains("'daily'")
        }
    }

    @Test("registering after the launch completed is refused with an error that names it", arguments: TestBackend.all)
    func afterLaunch(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        let (noop, start) = (self.noop, self.start)
        let scheduler = harness.scheduler()
        nonisolated(unsafe) var escaped: TaskRegistrar?  // Written and read on this task only.
        try await scheduler.launch(LaunchPlan(jobs: 1)) { registrar throws(SchedulingError) in
            escaped = registrar
            try registrar.register("daily", for: .everyUser, startingWith: start, using: noop)
        }
        let late = try #require(escaped)
        #expect {
            try late.register(
                "hourly", for: .everyUser,
                startingWith: { scope, _ in AppRefreshTaskRequest(identifier: "hourly", scope: scope) }, using: noop)
        } throws: { error in
            guard case SchedulingError.registeredAfterLaunch(let identifier) = error else { return false }
            return identifier == "hourly" && "\(error)".contains("'hourly'")
        }
        #expect(scheduler.registeredIdentifiers == ["daily"])
    }

    @Test("a scheduler launches once; the second launch is refused", arguments: TestBackend.all)
    func launchTwice(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        let scheduler = harness.scheduler()
        try await scheduler.launch(LaunchPlan(jobs: 1)) { _ throws(SchedulingError) in }
        await #expect {
            try await scheduler.launch(LaunchPlan(jobs: 1)) { _ throws(SchedulingError) in }
        } throws: { error in
            if case SchedulingError.alreadyLaunched = error { true } else { false }
        }
    }

    @Test(
        "submitting an identifier outside the permitted list is refused with an error that names it",
        arguments: TestBackend.all)
    func submitUnpermitted(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        await #expect {
            try await harness.scheduler().submit(AppRefreshTaskRequest(identifier: "elsewhere"), policy: .replace)
        } throws: { error in
            guard case SchedulingError.notPermitted(let identifier) = error else { return false }
            return identifier == "elsewhere"
        }
    }

    @Test(
        "the launch starts the chain of every registered task for every user, and for the global scope",
        arguments: TestBackend.all)
    func launchStartsChains(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada", "bob", "cy"])
        let later = harness.now.addingTimeInterval(3600)
        let report = try await harness.launch([
            .periodic("daily", every: 86_400, firstAt: later),
            .periodic("global-sweep", every: 3600, scope: .global, firstAt: later),
        ])
        #expect(report.startedChains == 4)
        #expect(report.runs.isEmpty)
        let pending = try await harness.scheduler().pendingRequests()
        #expect(
            Set(pending.map { "\($0.identifier) \($0.scope)" }) == [
                "daily ada", "daily bob", "daily cy", "global-sweep global",
            ])
        #expect(pending.allSatisfy { $0.earliestBeginDate == later && $0.isPending && $0.attempts == 0 })

        // A second launch starts nothing new, and a new user gets their chain at the next one.
        #expect(try await harness.launch([.periodic("daily", every: 86_400, firstAt: later)]).startedChains == 0)
        try await harness.addUsers(["dee"])
        #expect(try await harness.launch([.periodic("daily", every: 86_400, firstAt: later)]).startedChains == 1)
    }
}
