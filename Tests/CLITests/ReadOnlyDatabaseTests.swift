import Foundation
import PipelineKit
import TestSupport
import Testing

/// A database this process can read but not write: another user's file, or a read-only file system.
@Suite("A read-only database", .timeLimit(.minutes(10)))
struct ReadOnlyDatabaseTests {
    static let now = "2026-03-15T12:00:00Z"

    /// SQLite reads a database in write-ahead-log mode through a `-shm` file beside it, which it could
    /// not create in a read-only folder: `status` and `export` failed with SQLite error 14 (cannot open).
    /// (Checked with `Store.existing` opening such a file as a writable one again: every command exited 1.)
    @Test("status, export, model and predict read a database in a read-only folder; a launch exits 74")
    func readOnlyFolder() async throws {
        let folder = TemporaryDirectory("read-only")
        let database = folder.path("pipeline.sqlite")
        let generator = CohortGenerator(users: 3, days: 60, seed: 9, now: Date(iso: Self.now))
        let ingest = try await runBinary(
            ["ingest", "-", "--db", database, "--now", Self.now], stdin: generator.jsonLines)
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let retrain = try await runBinary(["retrain", "--db", database, "--now", Self.now])
        #expect(retrain.status == 0, "\(retrain.stderr)")
        let user = try #require(generator.truths().first?.id.rawValue)
        // What the writers left beside the database (SQLite removes its -shm when the last connection closes, which
        // a process killed or overtaken at its exit may not reach): the read-only commands may not add to it.
        let shmBefore = FileManager.default.fileExists(atPath: database + "-shm")

        for command in [
            ["status"], ["export", "--user", user], ["model", "--user", user], ["predict", "--user", user],
        ] {
            let run = try await runBinary(
                command + ["--db", database, "--now", Self.now], readOnlyFolder: folder.url.path)
            #expect(run.status == 0, "\(command): \(run.stderr)")
            #expect(!run.stdout.isEmpty)
        }
        let launch = try await runBinary(
            ["run", "--db", database, "--now", "2026-03-15T13:00:00Z"], readOnlyFolder: folder.url.path)
        #expect(launch.status == 74, "\(launch.stderr)")
        #expect(launch.stderr.contains("the database cannot be written by this process"))
        #expect(FileManager.default.fileExists(atPath: database + "-shm") == shmBefore)
    }
}
