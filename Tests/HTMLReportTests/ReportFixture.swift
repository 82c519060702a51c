import Foundation
import HTMLReport
import Ingestion
import PipelineKit
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A database as a report finds it after a week of operation: a generated cohort through yesterday
/// (one user with too few days for a personal model, one with notes that try to break out of the
/// page), and the launches of the last eight days replayed every four hours over it, so every task
/// has runs and each day's retrain saw only the days before it. Built once per backend and
/// shared by the suite's tests, which only read it.
final class ReportFixture: Sendable {
    static let start = Date(iso: "2026-11-22T01:00:00Z")
    /// The report's clock: the last launch's.
    static let now = Date(iso: "2026-11-29T21:00:00Z")
    static let users = 6
    /// The notes of `noteUser`, as they were typed.
    static let note = "felt <b>awful</b> & \"dizzy\"\u{1B}[2J — 'again'"
    static let noteUser = UserID.literal("user-00002")
    static let newUser = UserID.literal("newcomer")

    let database: TestDatabase
    let pipeline: Pipeline

    private init(database: TestDatabase, pipeline: Pipeline) {
        self.database = database
        self.pipeline = pipeline
    }

    private static let cache = Cache()

    static func shared(_ backend: TestBackend) async throws -> ReportFixture {
        try await cache.fixture(backend)
    }

    private actor Cache {
        var built: [TestBackend: Task<ReportFixture, any Error>] = [:]

        func fixture(_ backend: TestBackend) async throws -> ReportFixture {
            if let task = built[backend] { return try await task.value }
            let task = Task { try await ReportFixture.build(backend) }
            built[backend] = task
            return try await task.value
        }
    }

    private static func build(_ backend: TestBackend) async throws -> ReportFixture {
        let database = TestDatabase(backend, now: now)
        let pipeline = try await database.open()
        let generator = CohortGenerator(users: users, days: 200, seed: 5, now: now)
        var text = generator.jsonLines
        for offset in 1...3 {
            let day = Day.literal("2026-11-2\(offset)")
            text +=
                "{\"type\":\"entry\",\"user\":\"\(noteUser)\",\"day\":\"\(day)\",\"notes\":"
                + JSONValue.string(note + " \(offset)").jsonText + "}\n"
        }
        text += "{\"type\":\"user\",\"user\":\"\(newUser)\",\"timeZone\":\"Europe/Berlin\"}\n"
        for offset in 1...5 {
            text +=
                "{\"type\":\"entry\",\"user\":\"\(newUser)\",\"day\":\"2026-11-1\(offset)\",\"symptomSeverity\":3}\n"
        }
        let ingested = try await pipeline.ingestJSONLines(from: .bytes(Array(text.utf8))) { _ in }
        #expect(ingested.rejected == 0)
        var instant = start
        while instant <= now {
            // As cron runs them: a launch every four hours, and the retrain, which only it runs.
            for command in ["run", "retrain"] {
                let run = await runCLI([command, "--db", database.path, "--now", ISO8601Instant.string(from: instant)])
                try #require(run.status == 0, "\(command): \(run.stderr)")
            }
            instant += 4 * 3600
        }
        return ReportFixture(database: database, pipeline: pipeline)
    }

    /// Writes a report of the fixture into a new folder.
    func report(_ configure: (inout ReportOptions) -> Void = { _ in }) async throws -> (TemporaryDirectory, String) {
        let directory = TemporaryDirectory("report")
        let out = directory.path("site")
        var options = ReportOptions(outputPath: out)
        options.jobs = 2
        configure(&options)
        _ = try await ReportGenerator.write(pipeline: pipeline, options: options)
        return (directory, out)
    }
}

/// Every file below `folder`, relative to it, sorted.
func files(in folder: String) -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: folder)
    var found: [String] = []
    while let path = enumerator?.nextObject() as? String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isDirectory),
            !isDirectory.boolValue
        {
            found.append(path)
        }
    }
    return found.sorted()
}

/// The permission bits of `path`.
func mode(of path: String) -> mode_t {
    var info = stat()
    guard stat(path, &info) == 0 else { return 0o7777 }
    return info.st_mode & 0o777
}

func contents(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
}
