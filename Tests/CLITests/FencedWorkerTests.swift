import Domain
import Foundation
import Glibc
import Ingestion
import PipelineKit
import Storage
import TestSupport
import Testing

/// A worker paused past its lease, on each database: the built `pipeline retrain` stopped with SIGSTOP
/// in the middle of a user's retrain, the request taken over and retrained by a second launch, then the
/// first resumed with SIGCONT. Every write of a run lands only while its lease (owner and attempt) holds,
/// so the first launch's late run must be refused whole and said so in its log.
///
/// No test hook and no sleep. The pause is placed as `RetrainProcessTests` places its kill: the
/// thread reading the child's log stops it the moment it says the run started, and the run is long
/// enough not to be over by then, because the first retrain of a launch pools the population model
/// over the whole cohort first (about 0.3 s for 1,000 users in the debug build). The lease expires by
/// the scheduler's clock (`--now`), not by waiting: the first launch runs at `first` with a 10-minute
/// budget, so its lease ends at `first` + 10 min + 10 s of grace, and the second runs at `second`, just
/// after. The budget is long in real time on purpose: a budget that ran out while the child was
/// stopped would cancel its training, and leave nothing of the run to refuse.
@Suite("Fenced workers", .timeLimit(.minutes(10)))
struct FencedWorkerTests {
    static let first = "2026-11-29T12:00:00Z"
    static let second = "2026-11-29T12:10:11Z"
    static let user = "user-00001"

    /// Planted in the user's days: no log line may show any of them.
    static let marker = "FENCE-MARKER-5521"
    static let plantedValues = ["123.4567", "47.8123", "27182.75", marker]

    /// The user's days before the cohort's first, with the values of `plantedValues`.
    static var plantedLines: String {
        (10...19).map { day in
            let day = "2026-10-\(day)"
            return
                #"{"type":"health","user":"\#(user)","day":"\#(day)","hrv":123.4567,"restingHeartRate":47.8123,"#
                + #""stepCount":4321,"sleepDuration":27182.75}"# + "\n"
                + #"{"type":"entry","user":"\#(user)","day":"\#(day)","symptomSeverity":6,"mood":2,"#
                + #""notes":"\#(marker)"}"#
        }.joined(separator: "\n")
    }

    @Test(
        "a retrain paused past its lease and resumed after another launch took its request over lands nothing",
        arguments: TestBackend.all)
    func pausedWorker(backend: TestBackend) async throws {
        let database = TestDatabase(backend, now: Date(iso: Self.first))
        let generator = CohortGenerator(users: 1500, days: 40, seed: 5, now: Date(iso: Self.first))
        let pipeline = try await database.open(ingesting: generator)
        let planted = try await pipeline.ingestJSONLines(from: .bytes(Array(Self.plantedLines.utf8))) { _ in }
        try #require(planted.rejected == 0)
        let store = try Store(path: database.path, clock: database.clock)
        let user = Self.user
        let plantedDays = try await store.dailyLogs(user: .literal(user), through: Day.literal("2026-10-19"))
        try #require(
            plantedDays.count == 10
                && plantedDays.allSatisfy { $0.notes == Self.marker && abs(($0.hrv?.value ?? 0) - 123.4567) < 1e-9 })

        // The first launch starts every chain and claims the user's retrain; it is stopped as the run starts.
        let marker = "ml-retrain [\(user)]: running (attempt 1)"
        let paused = try ChildProcess.start(
            ["retrain", "--db", database.path, "--now", Self.first, "--jobs", "1", "--user", user, "--budget", "10m"],
            environment: ["PIPELINE_LOG": "info"], stopOnOutput: marker)
        let reached = await paused.waitForOutput(containing: marker)
        try #require(reached, "the first launch ended before the user's retrain started: \(paused.errorOutput)")

        // Its run is in progress: the request is leased to it, for attempt 1, and its run is open.
        let held = try await store.taskRequests(identifier: "ml-retrain", scope: user)
        try #require(held.count == 1, "the user has \(held.count) retrain requests")
        let request = held[0]
        let firstWorker = try #require(
            request.leaseOwner, "the retrain was over before the pause: \(paused.errorOutput)")
        #expect(firstWorker.contains(":\(paused.identifier):"))
        #expect(request.attempts == 1)
        let open = try await store.taskRuns(identifier: "ml-retrain", scope: user, includeUnfinished: true)
        try #require(open.map(\.outcome) == [nil], "the retrain was over before the pause: \(paused.errorOutput)")

        // Past the lease by the clock, a second launch takes the request over and retrains the user.
        let takeover = try await runBinary(
            ["retrain", "--db", database.path, "--now", Self.second, "--jobs", "1", "--user", user],
            environment: ["PIPELINE_LOG": "info"], timeLimit: .seconds(300))
        #expect(!takeover.timedOut && takeover.status == 0, "\(takeover.stderr)")
        #expect(takeover.stderr.contains("worker \(firstWorker) died during its run (lease expired); running it again"))
        #expect(takeover.stderr.contains("ml-retrain [\(user)]: succeeded"))

        // The first resumes, finishes its retrain, and has its record and every write with it refused.
        kill(paused.identifier, SIGCONT)
        #expect(await paused.waitForExit() == .exit(0), "\(paused.errorOutput)")
        #expect(
            paused.errorOutput.contains(
                "ml-retrain [\(user)]: finished (success) after its lease expired and another worker took it over; "
                    + "this run was not recorded"),
            "\(paused.errorOutput)")
        #expect(!paused.errorOutput.contains("ml-retrain [\(user)]: succeeded"))

        // The run history: the first attempt as the takeover closed it, and one finished run of the second.
        let runs = try await store.taskRuns(identifier: "ml-retrain", scope: user, includeUnfinished: true)
        try #require(runs.count == 2, "\(runs)")
        #expect(runs.allSatisfy { $0.requestID == request.id })
        let (lost, won) = (runs[0], runs[1])
        #expect(lost.attempt == 1 && lost.worker == firstWorker)
        #expect(lost.outcome == .failure && lost.reason == "lease expired: worker died")
        #expect(lost.finishedAt == lost.leaseExpiresAt)
        #expect(lost.leaseExpiresAt == Date(iso: Self.first).addingTimeInterval(610))
        #expect(won.attempt == 2 && !won.worker.contains(":\(paused.identifier):"))
        #expect(won.outcome == .success && won.finishedAt == Date(iso: Self.second))
        #expect(runs.filter { $0.attempt == won.attempt && $0.finishedAt != nil }.count == 1)

        // The models: the user's and the population's are the second launch's alone.
        let models = try await store.modelHistory(scope: user)
        #expect(models.map(\.trainedAt) == [Date(iso: Self.second)])
        #expect(try await store.servingModel(scope: user)?.trainedAt == Date(iso: Self.second))
        let population = try await store.modelHistory(scope: StoredModel.populationScope)
        #expect(population.map(\.trainedAt) == [Date(iso: Self.second)])

        // The request's state: the successor the second run submitted, pending, no attempt counted.
        let after = try await store.taskRequests(identifier: "ml-retrain", scope: user)
        #expect(after.count == 1)
        #expect(after.first?.id != request.id)
        #expect(after.first?.leaseOwner == nil && after.first?.attempts == 0)
        #expect(after.first?.submittedAt == Date(iso: Self.second))
        #expect(after.first?.earliestBeginAt == Date(iso: "2026-11-30T03:00:00Z"))
        #expect(try await store.discardedTaskRequests(identifier: "ml-retrain", scope: user).isEmpty)

        // No log shows a value of the user's days.
        for value in Self.plantedValues {
            #expect(!paused.errorOutput.contains(value), "the first launch's log shows \(value)")
            #expect(!takeover.stderr.contains(value) && !takeover.stdout.contains(value), "the takeover shows \(value)")
        }
        withExtendedLifetime(database) {}
    }
}
