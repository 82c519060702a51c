import Domain
import Foundation
import TestSupport
import Testing

@testable import PipelineKit
@testable import Storage

/// The log readers of one retrain: at most one connection per job, however many batches are being prepared.
@Suite("Reader pool", .timeLimit(.minutes(1)))
struct ReaderPoolTests {
    @Test("a pool opens at most its limit of readers; a worker beyond it waits for one given back, and gets that one")
    func limit() async throws {
        let database = TestDatabase(.sqlite)
        let store = try Store(path: database.path, clock: database.clock)
        let pool = ReaderPool(limit: 2)
        let opened = Locked(0)
        let open = { () throws(StorageError) -> LogReader in
            opened.withLock { $0 += 1 }
            return try store.logReader()
        }
        guard case .reader(let first) = try await pool.take(opening: open, log: SilentLog()),
            case .reader(let second) = try await pool.take(opening: open, log: SilentLog())
        else {
            Issue.record("the pool handed out no reader below its limit")
            return
        }
        #expect(opened.withLock { $0 } == 2)

        let third = Task { try await pool.take(opening: open, log: SilentLog()) }
        // The third worker waits rather than opening: the limit holds until a reader comes back (a pool that
        // opened a third reader instead never has a worker waiting, and the suite's time limit fails the test).
        await pool.untilWaitingForTesting(1)
        #expect(opened.withLock { $0 } == 2)
        pool.give(back: second)
        guard case .reader(let handedOver) = try await third.value else {
            Issue.record("the waiting worker got no reader")
            return
        }
        #expect(handedOver === second)
        #expect(opened.withLock { $0 } == 2)
        pool.give(back: first)
        pool.give(back: handedOver)
    }
}
