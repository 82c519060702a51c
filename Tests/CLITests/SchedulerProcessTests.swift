import Domain
import Foundation
import Glibc
import PipelineKit
import Scheduling
import Storage
import TestSupport
import Testing

/// The scheduler across real processes: the built `pipeline` executable, several at once, and one
/// killed with SIGKILL. These are the product's own code paths — `pipeline run` launching the real
/// `health-refresh` task, which drains the watch queue through `Pipeline.drainWatchQueue` — with no
/// hook added for tests. The work a run does is made long by giving it a large watch queue, so a
/// kill sent when the run starts lands in the middle of it: 40,000 items take the debug build about
/// 2.5 s to drain, against the few milliseconds between the run's first log line and the kill, and
/// well inside the 30 s budget of the run that finishes the job. The test checks afterwards, from
/// the database, that the run really was in progress when the process died.
///
/// The database is prepared in this process through the library: users, watch items, and one
/// launch that starts every chain and runs `ml-retrain` with a personal model written for the test
/// (the binary has none until the Learning module is wired in), so that the processes started later
/// have exactly one kind of due work: each user's `health-refresh`.
@Suite("The scheduler across processes", .timeLimit(.minutes(10)))
struct SchedulerProcessTests {
    static let prepared = "2026-03-15T12:00:00Z"
    static let launched = "2026-03-15T12:01:00Z"

    /// Users, the first `queued` of them with `items` queued symptom logs each, cycling over the 60
    /// days before the launch; the chains started and `ml-retrain` done. The items are queued after
    /// the users exist: ingesting drains the queue at once (the foreground path).
    static func prepare(users ids: [String], queued: Int? = nil, items: Int) async throws -> (TestDatabase, Pipeline) {
        let database = TestDatabase(now: Date(iso: prepared))
        let pipeline = try await database.open(users: ids)
        var options = LaunchOptions()
        options.tasks = [PipelineTasks.mlRetrain]
        options.personalModel = FakeModelService(promoted: false, reason: "the test's model", insight: nil)
        options.conditions = FixedConditions(isOnExternalPower: true)
        let report = try await pipeline.launch(options)
        try #require(report.runs.count == ids.count && report.unsuccessfulRuns.isEmpty)
        // Parsed once: `Date(iso:)` builds a formatter at every call.
        let enqueuedAt = Date(iso: prepared)
        try await pipeline.store.batch { store in
            for id in ids.prefix(queued ?? ids.count) {
                for index in 0..<items {
                    guard let user = UserID(id) else { continue }
                    let payload = #"{"day":"\#(day(index))","symptomSeverity":\#(index % 11)}"#
                    _ = try store.stage(
                        .watch(
                            WatchSubmission(
                                user: user, kind: "symptomLog", payload: payload, enqueuedAt: enqueuedAt)))
                }
            }
        }
        return (database, pipeline)
    }

    /// The day item `index` is for: one of the 60 days before the launch.
    static func day(_ index: Int) -> Day {
        Day.literal("2026-03-14").adding(days: -(index % 60))
    }

    @Test("four launches started at once on one database run every due request exactly once")
    func fourAtOnce() async throws {
        let users = (0..<300).map { "user\($0)" }
        let (database, pipeline) = try await Self.prepare(users: users, items: 10)
        let arguments = ["run", "--db", database.path, "--now", Self.launched, "--jobs", "2"]
        async let first = runBinary(arguments)
        async let second = runBinary(arguments)
        async let third = runBinary(arguments)
        async let fourth = runBinary(arguments)
        for run in try await [first, second, third, fourth] {
            #expect(run.status == 0)
            #expect(run.stderr.isEmpty)
        }
        let history = try await pipeline.taskHistory(task: PipelineTasks.healthRefresh)
        #expect(history.count == users.count)
        let perUser = Dictionary(grouping: history, by: \.scope)
        #expect(perUser.count == users.count)
        #expect(perUser.values.allSatisfy { $0.count == 1 && $0.first?.outcome == .success })
        #expect(history.allSatisfy { $0.reason == "applied 10 watch items" })
        #expect(try await pipeline.summary().watchItemsByKind.isEmpty)
        // Each chain goes on with exactly one pending successor.
        let pending = try await pipeline.pendingTasks(task: PipelineTasks.healthRefresh)
        #expect(pending.count == users.count && pending.allSatisfy { $0.isPending && $0.attempts == 0 })
    }

    @Test("a launch killed with SIGKILL mid-task is re-run by the next launch after its lease expires; nothing is lost")
    func killedMidTask() async throws {
        let items = 40_000
        // bob's run comes after ada's (one job): it has not started when the process dies.
        let (database, pipeline) = try await Self.prepare(users: ["ada", "bob"], queued: 1, items: items)

        // The child is stopped (SIGSTOP) the moment it says ada's run started — by the thread reading
        // its output, so a busy test runner cannot let it drain the whole queue first — then killed.
        let marker = "health-refresh [ada]: running (attempt 1)"
        let child = try ChildProcess.start(
            ["run", "--db", database.path, "--now", Self.launched, "--jobs", "1"],
            environment: ["PIPELINE_LOG": "info"], stopOnOutput: marker)
        let reached = await child.waitForOutput(containing: marker)
        try #require(reached, "the launch ended before ada's health-refresh started: \(child.errorOutput)")
        kill(child.identifier, SIGKILL)
        let ending = await child.waitForExit()
        #expect(ending == .signal(SIGKILL))

        // The run was in progress: the request is still leased by the dead worker and its run open.
        let store = try Store(path: database.path, clock: database.clock)
        let held = try await store.taskRequests(identifier: "health-refresh", scope: "ada").filter {
            $0.leaseOwner != nil
        }
        try #require(held.count == 1, "ada's health-refresh was not running when the process died")
        let open = try await store.taskRuns(identifier: "health-refresh", scope: "ada", includeUnfinished: true)
        #expect(open.map(\.outcome) == [nil])
        let left = try await pipeline.summary().watchItemsByKind["symptomLog"] ?? 0
        #expect(left > 0, "the whole queue was drained before the kill landed")

        // Before the lease (30 s budget + 10 s grace) expires, a launch leaves ada's run alone.
        let early = try await runBinary(["run", "--db", database.path, "--now", "2026-03-15T12:01:30Z", "--json"])
        #expect(early.status == 0)
        let earlyRuns = try #require(try JSONSerialization.jsonObject(with: Data(early.stdout.utf8)) as? [String: Any])
        #expect((earlyRuns["runs"] as? [[String: Any]])?.compactMap { $0["user"] as? String } == ["bob"])

        let recovery = try await runBinary(["run", "--db", database.path, "--now", "2026-03-15T12:01:41Z"])
        #expect(recovery.status == 0)
        #expect(recovery.stderr.contains("died during its run (lease expired); running it again"))

        let ada = try await pipeline.taskHistory(user: .literal("ada"), task: PipelineTasks.healthRefresh)
        #expect(ada.map(\.outcome) == [.failure, .success])
        #expect(ada.map(\.attempt) == [1, 2])
        #expect(ada.first?.reason == "lease expired: worker died")
        #expect(ada.last?.reason == "applied \(left) watch items")
        let bob = try await pipeline.taskHistory(user: .literal("bob"), task: PipelineTasks.healthRefresh)
        #expect(bob.map(\.outcome) == [.success])

        // Nothing lost: every item was applied once, in order, so each day holds its last item's value.
        #expect(try await pipeline.summary().watchItemsByKind.isEmpty)
        #expect(try await pipeline.summary().deadLetters == 0)
        var expected: [Day: Int] = [:]
        for index in 0..<items { expected[Self.day(index)] = index % 11 }
        let logs = try await pipeline.dailyLogs(user: .literal("ada"))
        #expect(logs.count == expected.count)
        #expect(logs.allSatisfy { expected[$0.day] == $0.symptomSeverity })
        // Every chain goes on: one pending request per task and user, none leased.
        let pending = try await pipeline.pendingTasks()
        #expect(pending.count == 8 && pending.allSatisfy(\.isPending))
    }
}
