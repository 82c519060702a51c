import Domain
import Foundation

/// The executor of an actor that owns a database connection (`Store`, `LogReader`): a thread of its own, on which
/// the actor's calls run one after another, in the order they came.
///
/// Swift runs actors on its cooperative pool, one thread per core, and a database call holds its thread while the
/// database works: SQLite's `fsync`, and on PostgreSQL every round trip, the server's time, and a lock wait of up
/// to `lock_timeout`. On the pool, such a wait takes a thread from every other task of the process. On two cores,
/// a worker's fits stopped while a batch's record and its next read waited on the server; and two writers waiting
/// on a lock held by a third transaction held both threads, so the third could not commit until a timeout. A thread
/// per connection waits alone. The thread ends when the actor that owns the executor is gone.
final class ConnectionThread: SerialExecutor {
    private let jobs = Jobs()

    /// Starts the thread, named `name` for debuggers and `top -H`.
    init(name: String) {
        // Taken here, not on the thread: an actor whose initializer throws releases its executor at once, maybe
        // before the thread starts, and the reference must not be touched then. It holds no reference count.
        let executor = UnownedSerialExecutor(ordinary: self)
        let thread = Thread { [jobs] in
            jobs.run(on: executor)
        }
        thread.name = name
        thread.start()
    }

    deinit {
        jobs.close()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        jobs.append(UnownedJob(job))
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// The jobs waiting for the thread; the semaphore counts them (and the close), for the thread to sleep on.
    private final class Jobs: Sendable {
        private let state = Locked<(waiting: [UnownedJob], closed: Bool)>(([], false))
        private let arrived = DispatchSemaphore(value: 0)

        func append(_ job: UnownedJob) {
            state.withLock { $0.waiting.append(job) }
            arrived.signal()
        }

        func close() {
            state.withLock { $0.closed = true }
            arrived.signal()
        }

        /// Runs jobs as they come until `close()`, then the ones still waiting, and returns. The executor is
        /// unowned here: a waiting job holds its actor, which holds the executor, so the executor outlives every
        /// job it runs (it is released at the earliest inside the last one).
        func run(on executor: UnownedSerialExecutor) {
            var taken: [UnownedJob] = []
            while true {
                arrived.wait()
                let closed = state.withLock { state in
                    swap(&taken, &state.waiting)
                    return state.closed
                }
                for job in taken { job.runSynchronously(on: executor) }
                if closed && taken.isEmpty { return }
                taken.removeAll(keepingCapacity: true)
            }
        }
    }
}
