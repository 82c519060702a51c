import Domain
import Foundation
import PipelineKit
import Scheduling
import TestSupport
import Testing

@testable import Storage

/// A PostgreSQL server that is busy — a lock held by someone else, no connection to spare — defers a
/// launch's work instead of failing it: the launch stops claiming, gives back what it holds with no attempt
/// counted, and exits 75; a retrain goes on with fewer connections.
@Suite("A busy database", .postgreSQL, .timeLimit(.minutes(10)))
struct BusyDatabaseTests {
    static let now = "2026-03-15T12:00:00Z"

    /// Four users in UTC with a few days each: `pipeline run` at 12:00 starts their chains, and their
    /// reminders (which read today's log) are due from 20:00.
    static func cohort(_ database: TestDatabase, address: String) async throws {
        let lines = (0..<4).flatMap { user in
            [
                #"{"type":"user","user":"u\#(user)","timeZone":"UTC"}"#,
                #"{"type":"entry","user":"u\#(user)","day":"2026-03-14","mood":3}"#,
            ]
        }
        let ingest = try await runBinary(
            ["ingest", "-", "--db", address, "--now", now], stdin: lines.joined(separator: "\n"))
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let start = try await runBinary(["run", "--db", address, "--now", now])
        #expect(start.status == 0, "\(start.stderr)")
    }

    /// Each reminder waited out the lock timeout (15 s), failed, and was charged an attempt; a launch over
    /// 203 requests with a 400 s lock ran 25 of them and exited 1. (Checked with `fail` completing a busy
    /// run unsuccessfully again: the launch exited 0 and every reminder was charged its attempt.)
    @Test("a table locked past the lock timeout ends the launch with 75; its requests keep their attempts")
    func lockedTable() async throws {
        let database = TestDatabase(.postgresql)
        // The operator's lock timeout in the URL is kept: the test waits one second per lock, not fifteen.
        let address = database.path + "%20-clock_timeout%3D1s"
        try await Self.cohort(database, address: address)
        let locker = try PostgreSQLConnection(url: database.path)
        try locker.begin()
        try locker.execute("LOCK TABLE daily_logs IN ACCESS EXCLUSIVE MODE")
        let busy = try await runBinary(["run", "--db", address, "--now", "2026-03-15T20:30:00Z", "--jobs", "2"])
        locker.rollback()
        #expect(busy.uncaughtSignal == nil)
        #expect(busy.status == 75, "\(busy.stderr)")
        #expect(busy.stderr.contains("busy or unavailable"), "\(busy.stderr)")
        #expect(busy.stderr.contains("try again later"))

        let store = try Store(path: database.path, clock: database.clock)
        let reminders = try await store.taskRequests(identifier: PipelineTasks.engagementDaily.rawValue)
        #expect(reminders.count == 4)
        #expect(reminders.allSatisfy { $0.attempts == 0 && $0.leaseOwner == nil }, "\(reminders)")
        let failed = try await store.taskRuns(identifier: PipelineTasks.engagementDaily.rawValue)
        #expect(failed.isEmpty, "a given-back run is not recorded")

        // The lock gone, the next launch runs them all, each at its first attempt.
        let later = try await runBinary(["run", "--db", address, "--now", "2026-03-15T20:35:00Z"])
        #expect(later.status == 0, "\(later.stderr)")
        let runs = try await store.taskRuns(identifier: PipelineTasks.engagementDaily.rawValue)
        #expect(runs.count == 4 && runs.allSatisfy { $0.outcome == .success && $0.attempt == 1 }, "\(runs)")
    }

    /// The role may open one connection: the retrain's own. Before a retrain read through the store when
    /// no reader could be opened, every request failed with "too many connections" and was charged an
    /// attempt. (Checked with `ReaderPool.take` throwing the refusal again: the launch gave its requests
    /// back and exited 75, retraining nobody.)
    @Test("a retrain that cannot open its readers goes on with fewer and retrains everyone")
    func tooManyConnections() async throws {
        let (host, _, name) = try PostgreSQLAddressTests.server()
        let suffix = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
        let role = "limited_\(suffix)"
        let schema = "t_limited_\(suffix)"
        let admin = TestDatabase(.postgresql)
        try Store.executeForTesting(
            at: admin.path,
            "CREATE ROLE \(role) LOGIN CONNECTION LIMIT 1; CREATE SCHEMA \(schema) AUTHORIZATION \(role)")
        defer {
            try? Store.executeForTesting(at: admin.path, "DROP SCHEMA \(schema) CASCADE; DROP ROLE \(role)")
        }
        let address = "postgresql:///\(name)?host=\(host)&user=\(role)&options=-csearch_path%3D\(schema)"
        let generator = CohortGenerator(users: 6, days: 90, seed: 5, now: Date(iso: Self.now))
        let ingest = try await runBinary(
            ["ingest", "-", "--db", address, "--now", Self.now], stdin: generator.jsonLines)
        #expect(ingest.status == 0, "\(ingest.stderr)")

        let retrain = try await runBinary(["retrain", "--db", address, "--now", Self.now, "--jobs", "4"])
        #expect(retrain.status == 0, "\(retrain.stderr)")
        #expect(retrain.stderr.contains("going on with the store's own connection"), "\(retrain.stderr)")
        let store = try Store(path: address)
        let runs = try await store.taskRuns(identifier: PipelineTasks.mlRetrain.rawValue)
        #expect(runs.count == 6 && runs.allSatisfy { $0.outcome == .success && $0.attempt == 1 }, "\(runs)")
    }
}
