import CSQLite
import Dispatch
import Synchronization

/// Moves a database's write-ahead log into its file on a queue of its own, so that the connection that
/// writes never stops in a commit to copy pages and wait for `fsync`.
///
/// SQLite's default checkpoints run inside the commit that takes the log past 1,000 pages: the writing
/// thread copies the log into the file and syncs it while it holds the store's actor, and every other task
/// waiting on the store waits with it (both workers of a retrain stood still each time, and an ingestion's
/// writer, the slower of its two threads, lost a share of its time: docs/benchmarks.md). Here the writer's
/// commit only hands the checkpoint to a serial queue, which runs a PASSIVE checkpoint on a connection of its
/// own: it copies what no reader still needs, and never blocks the writer or a reader
/// (https://www.sqlite.org/c3ref/wal_checkpoint_v2.html). A commit after a complete checkpoint starts the log
/// over from its beginning, as after SQLite's own, so the log stays about as small.
///
/// The queue's connection opens with the first checkpoint a writer asks for, so a short command that writes
/// little opens none. Should it fail to open, the writer checkpoints in its commits as SQLite would. Durability
/// is SQLite's: a checkpoint cut short by a crash is finished or redone by the next connection.
final class LogCheckpointer: Sendable {
    /// Log pages that start a checkpoint: SQLite's own default (`SQLITE_DEFAULT_WAL_AUTOCHECKPOINT`).
    static let pages: Int32 = 1000

    private let path: String
    private let queue = DispatchQueue(label: "pipeline.log-checkpoints")
    /// Whether a checkpoint is queued and not yet started: commits meanwhile ask for nothing more.
    private let isQueued = Atomic<Bool>(false)
    private let hasFailed = Atomic<Bool>(false)
    private let completed = Atomic<Int>(0)
    /// The queue's connection, opened on first use; held during every checkpoint this type runs or lets
    /// run (`exclusively`), since SQLite refuses a second checkpoint at once with SQLITE_BUSY rather than
    /// waiting for the first.
    private let connection = Mutex<OpaquePointer?>(nil)

    /// A checkpointer for the database file of `writer`, which from now on leaves its checkpoints to it.
    /// Call `detach(from:)` before the connection closes.
    init(attachedTo writer: Connection) {
        path = sqlite3_db_filename(writer.handle, "main").map { String(cString: $0) } ?? writer.path
        sqlite3_wal_hook(
            writer.handle,
            { context, database, name, pages in
                guard pages >= LogCheckpointer.pages, let context else { return SQLITE_OK }
                let checkpointer = Unmanaged<LogCheckpointer>.fromOpaque(context).takeUnretainedValue()
                if !checkpointer.request() {
                    // Nowhere to hand it: the checkpoint SQLite's own hook would run, here, in the commit.
                    _ = sqlite3_wal_checkpoint(database, name)
                }
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Gives `writer` SQLite's own checkpoints back, then closes the queue's connection after the checkpoint it
    /// may be running.
    func detach(from writer: Connection) {
        sqlite3_wal_autocheckpoint(writer.handle, LogCheckpointer.pages)
        queue.sync {
            connection.withLock { handle in
                sqlite3_close_v2(handle)
                handle = nil
            }
        }
    }

    /// Runs `body` while no checkpoint of this type runs, e.g. a TRUNCATE checkpoint on the writer.
    func exclusively(_ body: () throws(StorageError) -> Void) throws(StorageError) {
        try connection.withLock { (_) throws(StorageError) in try body() }
    }

    /// Waits for the checkpoints asked for so far, and returns how many the queue has run.
    @discardableResult
    func waitUntilIdle() -> Int {
        queue.sync {}
        return completed.load(ordering: .acquiring)
    }

    /// Queues a checkpoint unless one is queued already. `false` when the queue has no connection.
    private func request() -> Bool {
        if hasFailed.load(ordering: .relaxed) { return false }
        guard !isQueued.exchange(true, ordering: .acquiringAndReleasing) else { return true }
        queue.async { [self] in
            isQueued.store(false, ordering: .releasing)
            checkpoint()
        }
        return true
    }

    private func checkpoint() {
        connection.withLock { handle in
            if handle == nil {
                // Not SQLITE_OPEN_CREATE: a database deleted under the writer is not created again here.
                var opened: OpaquePointer?
                var code = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
                // A connection finds the log with its first read; until then its checkpoints do nothing (they
                // report a database not in WAL mode).
                if code == SQLITE_OK {
                    code = sqlite3_exec(opened, "SELECT 1 FROM sqlite_schema LIMIT 1", nil, nil, nil)
                }
                guard code == SQLITE_OK else {
                    sqlite3_close_v2(opened)
                    hasFailed.store(true, ordering: .relaxed)
                    return
                }
                handle = opened
            }
            _ = sqlite3_wal_checkpoint_v2(handle, "main", SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            completed.add(1, ordering: .releasing)
        }
    }
}
