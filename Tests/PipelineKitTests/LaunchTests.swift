import Domain
import Foundation
import PipelineKit
import Scheduling
import Storage
import TestSupport
import Testing

@Suite("The launch of the pipeline's tasks", .timeLimit(.minutes(10)))
struct LaunchTests {
    /// DESIGN §8, bug 1: handlers registered, chain never started. Checked by making the launch skip
    /// `startChains`: nothing ran and this test (and the other launch tests) failed.
    @Test(
        "the first launch starts all four chains per user and runs what is due at once; the next runs nothing",
        arguments: TestBackend.all)
    func firstLaunch(backend: TestBackend) async throws {
        let harness = try await LaunchHarness(backend)
        try await harness.addUser("ada")
        try await harness.addUser("bob", timeZone: "Asia/Tokyo")
        let report = try await harness.launch()
        #expect(report.startedChains == 8)
        #expect(
            Set(report.runs.map { "\($0.identifier) \($0.scope)" }) == [
                "health-refresh ada", "health-refresh bob", "ml-retrain ada", "ml-retrain bob",
            ])
        #expect(report.runs.allSatisfy { $0.outcome == .success })
        #expect(harness.model.retrains.sorted() == [.literal("ada"), .literal("bob")])

        // Every handler submitted its successor: one pending request per task and user.
        let pending = try await harness.pipeline.pendingTasks()
        #expect(pending.count == 8)
        #expect(pending.allSatisfy { $0.isPending })

        let again = try await harness.launch()
        #expect(again.startedChains == 0)
        #expect(again.runs.isEmpty)
        #expect(!(try await harness.pipeline.status(harness.options()).hasProblems))
    }

    @Test(
        "ingestion alone starts no chain: status shows each task registered but never submitted (DESIGN §8, bug 1)",
        arguments: TestBackend.all)
    func neverLaunched(backend: TestBackend) async throws {
        let harness = try await LaunchHarness(backend)
        try await harness.addUser("ada")
        let status = try await harness.pipeline.status(harness.options())
        #expect(Set(status.scheduler.neverSubmitted.map(\.identifier)) == Set(PipelineTasks.identifiers))
        #expect(status.hasProblems)
        try await harness.launch()
        #expect(try await harness.pipeline.status(harness.options()).scheduler.neverSubmitted.isEmpty)
    }

    @Test(
        "health-refresh drains only the known watch kinds; an unknown kind stays queued and shows in status",
        arguments: TestBackend.all)
    func healthRefreshDrainsKnownKinds(backend: TestBackend) async throws {
        let harness = try await LaunchHarness(backend)
        try await harness.addUser("ada")
        for (kind, payload) in [
            ("symptomLog", #"{"day":"2026-03-14","symptomSeverity":6}"#),
            ("healthCheckIn", #"{"day":"2026-03-14","mood":2,"energy":3}"#),
            ("heartRateZone", #"{"day":"2026-03-14","zone":3}"#),
        ] {
            try await harness.pipeline.store.enqueue(
                WatchSubmission(user: .literal("ada"), kind: kind, payload: payload, enqueuedAt: harness.clock.now))
        }
        try await harness.launch { $0.tasks = [PipelineTasks.healthRefresh] }
        let log = try #require(try await harness.pipeline.dailyLog(user: .literal("ada"), day: .literal("2026-03-14")))
        #expect(log.symptomSeverity == 6)
        #expect(log.mood == 2)
        #expect(try await harness.pipeline.summary().watchItemsByKind == ["heartRateZone": 1])
        let run = try #require(try await harness.history(PipelineTasks.healthRefresh).first)
        #expect(run.reason == "applied 2 watch items")
        let status = try await harness.pipeline.status(harness.options())
        #expect(status.unknownWatchKinds == ["heartRateZone": 1])
    }

    @Test(
        "health-refresh runs every 4 hours at a fixed rate, whatever the lateness of the launches",
        arguments: TestBackend.all)
    func healthRefreshCadence(backend: TestBackend) async throws {
        let harness = try await LaunchHarness(backend, now: Date(iso: "2026-03-15T00:00:00Z"))
        try await harness.addUser("ada")
        try await harness.launch { $0.tasks = [PipelineTasks.healthRefresh] }
        // Launches 10 minutes late every time.
        for hour in stride(from: 4, through: 20, by: 4) {
            harness.clock.set(Date(iso: "2026-03-15T00:00:00Z").addingTimeInterval(Double(hour) * 3600 + 600))
            #expect(try await harness.launch { $0.tasks = [PipelineTasks.healthRefresh] }.runs.count == 1)
        }
        let next = try #require(try await harness.pipeline.pendingTasks(task: PipelineTasks.healthRefresh).first)
        #expect(next.earliestBeginDate == Date(iso: "2026-03-16T00:00:00Z"))
    }

    /// Checked by removing the launch's final checkpoint: the log held 535,632 bytes, and the copy had no
    /// runs and no users.
    @Test(
        "after a launch the SQLite file alone holds its writes: a copy without the log has every run, and the log is empty"
    )
    func launchLeavesItsWritesInTheFile() async throws {
        let harness = try await LaunchHarness(.sqlite)
        try await harness.addUser("ada")
        try await harness.addUser("ben")
        let report = try await harness.launch { $0.tasks = [PipelineTasks.mlRetrain] }
        #expect(report.runCount == 2)

        // The pipeline is still open, as in a process that exits before its connection is closed: nothing
        // but the launch itself has moved the log into the file.
        let original = harness.database.path
        let log = try FileManager.default.attributesOfItem(atPath: original + "-wal")[.size] as? Int
        #expect(log == 0)
        let copy = harness.database.directory.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: original, toPath: copy)
        let store = try Store(path: copy, clock: harness.clock)
        let runs = try await store.taskRuns(identifier: PipelineTasks.mlRetrain.rawValue)
        #expect(runs.count == 2)
        #expect(try await store.users().map(\.id.rawValue) == ["ada", "ben"])
    }

    @Test("ml-retrain waits for external power, then retrains every night", arguments: TestBackend.all)
    func retrainNeedsPower(backend: TestBackend) async throws {
        let harness = try await LaunchHarness(backend)
        try await harness.addUser("ada")
        harness.conditions.set(DeviceConditions(isOnExternalPower: false, hasNetworkConnectivity: true))
        let onBattery = try await harness.launch { $0.tasks = [PipelineTasks.mlRetrain] }
        #expect(onBattery.runs.isEmpty)
        #expect(onBattery.waitingForConditions.map(\.identifier) == [PipelineTasks.mlRetrain])
        #expect(harness.model.retrains.isEmpty)

        harness.conditions.set(DeviceConditions(isOnExternalPower: true, hasNetworkConnectivity: true))
        harness.clock.advance(by: 900)
        let plugged = try await harness.launch { $0.tasks = [PipelineTasks.mlRetrain] }
        let run = try #require(plugged.runs.first)
        #expect(run.outcome == .success)
        #expect(run.reason?.hasPrefix("promoted: ") == true)
        let next = try #require(try await harness.pipeline.pendingTasks(task: PipelineTasks.mlRetrain).first)
        #expect(next.requiresExternalPower)
        #expect(next.earliestBeginDate == Date(iso: "2026-03-16T03:00:00Z"))  // 03:00 on ada's clock (UTC)
    }

    @Test(
        "retrain --force runs ml-retrain before it is due; a retrain that fails is recorded with its reason",
        arguments: TestBackend.all)
    func forceAndFailure(backend: TestBackend) async throws {
        let harness = try await LaunchHarness(backend)
        try await harness.addUser("ada")
        try await harness.launch()
        harness.clock.advance(by: 3600)
        #expect(try await harness.launch { $0.tasks = [PipelineTasks.mlRetrain] }.runs.isEmpty)
        harness.model.failure.withLock { $0 = .noModel("the test model fails") }
        let forced = try await harness.launch {
            $0.tasks = [PipelineTasks.mlRetrain]
            $0.force = true
        }
        let run = try #require(forced.runs.first)
        #expect(run.identifier == PipelineTasks.mlRetrain)
        #expect(run.outcome == .failure)
        #expect(run.reason?.contains("the test model fails") == true)
    }

    /// A library user's `launch(LaunchOptions())` recorded a failed `ml-retrain` ("no personal model service is
    /// configured in this build") and threw nothing; `pipeline status` then showed no problem.
    @Test("LaunchOptions() retrains with the pipeline's own personal models, as pipeline retrain does")
    func defaultModelService() async throws {
        let database = TestDatabase(.sqlite, now: Date(iso: "2026-03-15T12:00:00Z"))
        let pipeline = try await database.open()
        let ada = UserID.literal("ada")
        try await pipeline.ingest(.user(UserUpdate(id: ada, timeZone: TimeZone.iana("UTC"))))
        for back in 1...30 {
            var entry = UserEntry(user: ada, day: Day.literal("2026-03-15").adding(days: -back))
            entry.symptomSeverity = .set(back % 7)
            try await pipeline.ingest(.entry(entry))
        }
        var options = LaunchOptions()
        options.conditions = ManualConditions()
        let report = try await pipeline.launch(options)
        let retrain = try #require(report.runs.first { $0.identifier == PipelineTasks.mlRetrain })
        #expect(retrain.outcome == .success, "\(retrain.reason ?? "")")
        #expect(retrain.reason?.hasPrefix("serving: ") == true, "\(retrain.reason ?? "")")
        let served = try #require(try await PersonalModels(pipeline: pipeline).servedModel(for: ada))
        #expect(served.stored.scope == "ada")
    }

    @Test(
        "weekly-insight queues one insight on Sunday at the reminder hour, once a week, unless turned off",
        arguments: TestBackend.all)
    func weeklyInsight(backend: TestBackend) async throws {
        // 2026-03-15 is a Sunday.
        let harness = try await LaunchHarness(backend, now: Date(iso: "2026-03-14T12:00:00Z"))
        try await harness.addUser("ada")
        try await harness.addUser("bob", settings: [.weeklyInsight: .bool(false)])
        try await harness.launch()
        harness.clock.set(Date(iso: "2026-03-15T20:00:00Z"))
        let report = try await harness.launch { $0.tasks = [PipelineTasks.weeklyInsight] }
        #expect(report.runs.count == 2)
        let outbox = try await harness.pipeline.outbox()
        #expect(outbox.map(\.user) == [.literal("ada")])
        #expect(outbox.first?.kind == OutboxKind.weeklyInsight)
        #expect(outbox.first?.day == .literal("2026-03-09"))  // the Monday of that week
        #expect(harness.model.insights == [.literal("ada")])
        let next = try #require(
            try await harness.pipeline.pendingTasks(user: .literal("ada"), task: PipelineTasks.weeklyInsight).first)
        #expect(next.earliestBeginDate == Date(iso: "2026-03-22T20:00:00Z"))

        // Run again in the same week (forced): nothing new is queued, the model is not asked again.
        try await harness.launch {
            $0.tasks = [PipelineTasks.weeklyInsight]
            $0.force = true
        }
        #expect(try await harness.pipeline.outbox().count == 1)
        #expect(harness.model.insights.count == 1)
    }
}
