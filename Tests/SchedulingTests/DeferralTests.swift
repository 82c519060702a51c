import Domain
import Foundation
import Scheduling
import Storage
import TestSupport
import Testing

@Suite("Runs given back when the database is busy", .timeLimit(.minutes(10)))
struct DeferralTests {
    /// What a driver throws when a lock is held past its timeout.
    static let busy = StorageError.postgresql(
        sqlState: "55P03", message: "canceling statement due to lock timeout", sql: "SELECT 1")

    /// Each run of a user listed in `busyUsers` finds the database busy; the others complete.
    static func task(busyUsers: Set<String>, ran: Locked<[String]>) -> TestTask {
        TestTask(
            identifier: "daily",
            chainStart: { scope, _ in AppRefreshTaskRequest(identifier: "daily", scope: scope) },
            handler: { task in
                let user = task.scope.user?.rawValue ?? ""
                ran.withLock { $0.append(user) }
                try? await task.submitWithRun(
                    AppRefreshTaskRequest(
                        identifier: "daily", scope: task.scope, earliestBeginDate: task.startedAt + 86_400))
                task.expirationHandler = {}
                if busyUsers.contains(user) {
                    task.deferRun(because: busy)
                } else {
                    task.setTaskCompleted(success: true)
                }
            })
    }

    /// Before runs could be given back, each run that met a lock held past its timeout was recorded as a
    /// failure with its attempt counted, and the launch went on claiming the next, to meet the same lock.
    /// (Checked with `deferRun` completing the task unsuccessfully instead: the launch returned, the run was
    /// recorded failed and the other users' requests ran.)
    @Test(
        "a run given back stops the launch: nothing more is claimed, what was claimed is released uncounted",
        arguments: TestBackend.all)
    func busyStopsTheLaunch(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        let users = (1...6).map { "user-\($0)" }
        try await harness.addUsers(users)
        let ran = Locked<[String]>([])
        let task = Self.task(busyUsers: Set(users), ran: ran)
        try await harness.launch([task], plan: LaunchPlan(identifiers: [], jobs: 1))  // the chains only
        ran.withLock { $0 = [] }

        let error = await #expect(throws: SchedulingError.self) { try await harness.launch([task]) }
        guard case .storage(let reason)? = error else {
            Issue.record("the launch did not end with the database's error: \(String(describing: error))")
            return
        }
        #expect(reason.isBusy)
        #expect(ran.withLock { $0.count } == 1, "nothing was run after the database was found busy")
        #expect(try await harness.history().isEmpty, "a run given back is not recorded")
        let requests = try await harness.store.taskRequests(identifier: "daily")
        #expect(requests.count == users.count)
        #expect(requests.allSatisfy { $0.attempts == 0 && $0.leaseOwner == nil }, "\(requests)")
        #expect(harness.log.lines(atLeast: .warning).contains { $0.contains("given back unrun") })

        // Not busy any more: the next launch runs every user, each at its first attempt.
        let after = try await harness.launch([Self.task(busyUsers: [], ran: ran)])
        #expect(after.runs.count == users.count)
        #expect(after.runs.allSatisfy { $0.outcome == .success && $0.attempt == 1 })
    }
}
