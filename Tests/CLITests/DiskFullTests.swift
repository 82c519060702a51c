import Domain
import Foundation
import Ingestion
import PipelineKit
import Scheduling
import TestSupport
import Testing

@testable import Storage

/// `pipeline` on a disk that fills up, made with a file-size limit on the child process: a write
/// past it fails as on a full disk. The command exits 74 (`EX_IOERR`) and says what to do; what
/// was stored before stays whole; once there is room again, the next run finishes the work.
@Suite("A full disk", .timeLimit(.minutes(10)))
struct DiskFullTests {
    static let now = "2026-03-15T12:00:00Z"

    static func cohort(users: Int) async throws -> (TestDatabase, Pipeline, CohortGenerator) {
        let database = TestDatabase(now: Date(iso: now))
        let generator = CohortGenerator(users: users, days: 60, seed: 3, now: Date(iso: now))
        return (database, try await database.open(ingesting: generator), generator)
    }

    /// The largest file of the database (the file or its write-ahead log), in KiB, rounded up.
    static func largestFile(_ database: TestDatabase) throws -> Int {
        let sizes = try ["", "-wal"].compactMap { suffix -> Int? in
            let path = database.path + suffix
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            return try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        }
        return ((sizes.max() ?? 0) + 1023) / 1024 + 1
    }

    @Test("a retrain that fills the disk exits 74 with a clear message; models and logs stored before stay whole")
    func retrain() async throws {
        let (database, pipeline, generator) = try await Self.cohort(users: 40)
        let logs = try await pipeline.store.summary().dailyLogs
        let limit = try Self.largestFile(database)
        let full = try await runBinary(
            ["retrain", "--db", database.path, "--now", Self.now, "--jobs", "1"], fileSizeLimit: limit)
        #expect(full.status == 74, "\(full.stderr)")
        #expect(full.stderr.hasPrefix("Error: the database could not be written: the disk is full or failing"))
        #expect(full.stderr.contains("free space or check the disk, then run the command again"))

        let store = pipeline.store
        #expect(try await store.integrityCheck() == "ok")
        #expect(try await store.summary().dailyLogs == logs)
        let trained = try await generator.truths().asyncCount {
            try await store.servingModel(scope: $0.id.rawValue) != nil
        }
        #expect(trained < 40, "the disk filled before the cohort was done")

        // Room again, after any lease the full disk left held has expired: the rest is retrained.
        let later = try await runBinary(["retrain", "--db", database.path, "--now", "2026-03-15T12:30:00Z"])
        #expect(later.status == 0, "\(later.stderr)")
        let runs = try await store.taskRuns(identifier: "ml-retrain", includeUnfinished: true)
        #expect(Set(runs.filter { $0.outcome == .success }.map(\.scope)).count == 40)
    }

    @Test("an ingestion that fills the disk exits 74; the batches committed before it are kept whole")
    func ingest() async throws {
        let (database, pipeline, _) = try await Self.cohort(users: 5)
        let before = try await pipeline.store.summary().dailyLogs
        let generator = CohortGenerator(users: 400, days: 60, seed: 4, now: Date(iso: Self.now))
        let folder = TemporaryDirectory("disk-full")
        let input = folder.path("more.jsonl")
        let text = generator.jsonLines.replacingOccurrences(of: "user-", with: "more-")
        try Data(text.utf8).write(to: URL(fileURLWithPath: input))
        let full = try await runBinary(
            ["ingest", "--db", database.path, "--now", Self.now, input],
            fileSizeLimit: try Self.largestFile(database) + 256)
        #expect(full.status == 74, "\(full.stderr)")
        #expect(full.stderr.contains("the disk is full or failing"))
        #expect(try await pipeline.store.integrityCheck() == "ok")
        #expect(try await pipeline.store.summary().dailyLogs >= before)

        // With room again, the same input stores everything, once: as much as it stores on its own.
        let again = try await runBinary(["ingest", "--db", database.path, "--now", Self.now, input])
        #expect(again.status == 0, "\(again.stderr)")
        let alone = try await TestDatabase(now: Date(iso: Self.now)).open()
        _ = try await alone.ingestJSONLines(from: .bytes(Array(text.utf8))) { _ in }
        let added = try await alone.store.summary().dailyLogs
        #expect(try await pipeline.store.summary().dailyLogs == before + added)
    }
}

extension Sequence {
    fileprivate func asyncCount(_ predicate: (Element) async throws -> Bool) async rethrows -> Int {
        var count = 0
        for element in self where try await predicate(element) { count += 1 }
        return count
    }
}

/// The same inside one process, where the database's size can be capped exactly: SQLite's
/// `max_page_count` makes every write that needs a new page fail with SQLITE_FULL, while writes
/// into pages the database has succeed.
@Suite("A full database file", .timeLimit(.minutes(10)))
struct FullDatabaseFileTests {
    @Test("a retrain whose model cannot be written records its run as failed, says why, and releases its lease")
    func retrainRecordsFailure() async throws {
        let (database, pipeline, _) = try await DiskFullTests.cohort(users: 3)
        var options = LaunchOptions()
        options.jobs = 1
        options.tasks = []
        options.conditions = FixedConditions(isOnExternalPower: true, hasNetworkConnectivity: true)
        try await pipeline.launch(options)  // the chains, so that retraining writes only models and runs
        // SQLite raises a maximum below the database's size to its size.
        try await pipeline.store.executeForTesting("PRAGMA max_page_count = 1")

        options.tasks = [PipelineTasks.mlRetrain]
        options.personalModel = PersonalModels(pipeline: pipeline)
        let report = try await pipeline.launch(options)
        let failed = report.runs.filter { $0.outcome == .failure }
        #expect(!failed.isEmpty)
        #expect(failed.allSatisfy { $0.reason?.contains("the disk is full or failing") == true })
        let requests = try await pipeline.store.taskRequests(identifier: PipelineTasks.mlRetrain.rawValue)
        #expect(requests.allSatisfy { $0.leaseOwner == nil }, "no lease is left held")
        #expect(try await pipeline.store.integrityCheck() == "ok")
        withExtendedLifetime(database) {}
    }
}
