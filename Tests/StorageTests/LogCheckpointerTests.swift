import Domain
import Foundation
import TestSupport
import Testing

@testable import Storage

/// The write-ahead log is moved into the database file by a thread of its own, not by the commit that
/// takes it past 1,000 pages.
@Suite("The write-ahead log is checkpointed off the writing connection")
struct LogCheckpointerTests {
    /// Commits `count` transactions of about 100 pages each.
    static func commit(_ count: Int, on writer: Connection) throws {
        for _ in 0..<count { try writer.execute("INSERT INTO t VALUES (randomblob(400000))") }
    }

    static func logSize(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int)
    }

    @Test("a writer's commits leave the checkpoint to the thread, and the log restarts instead of growing")
    func checkpointsOffTheWriter() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("log.sqlite")
        let writer = try Connection(path: path)
        try writer.enableWriteAheadLog()
        try writer.execute("CREATE TABLE t (x BLOB)")
        let checkpointer = LogCheckpointer(attachedTo: writer)
        defer { checkpointer.detach(from: writer) }

        // The thread is held back: were the commits still checkpointing themselves, as SQLite's default does at
        // 1,000 pages, the log would restart and stay near that size.
        try checkpointer.exclusively { () throws(StorageError) in
            do { try Self.commit(30, on: writer) } catch { throw .cannotOpen(path: path, reason: "\(error)") }
        }
        let held = try Self.logSize(path)
        #expect(held > 2_900 * 4096, "the log holds every commit while the thread is held back")

        // Let go, the thread checkpoints; each later round of commits starts the log over from its beginning.
        #expect(checkpointer.waitUntilIdle() >= 1)
        for _ in 0..<4 {
            try Self.commit(15, on: writer)
            checkpointer.waitUntilIdle()
        }
        #expect(try Self.logSize(path) == held, "60 more commits reused the log's pages instead of adding to them")
        let count = try writer.scalarInt("SELECT count(*) FROM t")
        #expect(count == 90)
    }

    @Test("with the checkpoints on their own queue, the end of a launch still truncates the log to nothing")
    func truncatesAfterwards() async throws {
        let directory = TemporaryDirectory()
        let path = directory.path("store.sqlite")
        let store = try Store(path: path, clock: ManualClock(Date(iso: "2026-03-15T12:00:00Z")))
        try await store.executeForTesting("CREATE TABLE t (x BLOB)")
        for _ in 0..<30 { try await store.executeForTesting("INSERT INTO t VALUES (randomblob(400000))") }
        try await store.reclaimLogSpace()
        #expect(try Self.logSize(path) == 0)
        withExtendedLifetime(store) {}
    }
}
