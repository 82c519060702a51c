import Domain
public import Foundation
public import Storage

/// One run of a registered task, handed to its handler: iOS's `BGTask`.
///
/// The handler does its work, sets `expirationHandler`, and calls `setTaskCompleted(success:)` once.
/// The run ends when the task is completed (and the handler has returned), or when its budget runs
/// out: then the expiration handler is called and the handler's Swift task is cancelled, so work
/// that checks `Task.isCancelled` (or awaits anything cancellable) stops. A task with no expiration
/// handler at that moment is marked unsuccessful, as on iOS.
///
/// Safe to use from any task or thread.
public final class BackgroundTask: Sendable {
    public let identifier: TaskIdentifier
    public let scope: TaskScope
    public let kind: TaskKind
    /// Seconds the run may take before it expires.
    public let budget: TimeInterval
    /// When the run started, by the scheduler's clock.
    public let startedAt: Date
    /// The `earliestBeginDate` of the request being run, for handlers that reschedule at a fixed rate.
    public let earliestBeginDate: Date?
    /// The scheduler running this task: a handler submits its successor here, first thing.
    public let scheduler: TaskScheduler
    /// This run's lease: what it writes lands only while the lease holds. Writes stored with the run's record
    /// (`storeWithRun`) are fenced by it; a handler that must write before its run ends checks it in each of
    /// its own transactions (`Store.holdsLease`), as `health-refresh` does for each page of the watch queue.
    public let lease: TaskLease
    /// 1 for the first run of a request, higher for retries: the attempt the lease's claim counted.
    public var attempt: Int { lease.attempt }

    private let log: any LogSink
    private let state = Locked(State())

    enum Event: Sendable {
        case completed
        case returned
        case expired
        case graceOver
    }

    struct Completion: Sendable {
        var success: Bool
        var reason: String?
        var afterExpiry: Bool
    }

    private struct State {
        var expirationHandler: (@Sendable () -> Void)?
        var completion: Completion?
        var isExpired = false
        var hadExpirationHandler = false
        var isClosed = false
        var ignoredCompletions = 0
        var events: AsyncStream<Event>.Continuation?
        /// Whether the handler has returned (`send(.returned)`): only then does a completion end the run
        /// by itself, so only then is it sent to the supervisor.
        var hasReturned = false
        var writes: [TaskRunWrite] = []
        /// Why the handler gave the run back (`deferRun(because:)`).
        var deferral: StorageError?
    }

    init(
        identifier: TaskIdentifier, scope: TaskScope, kind: TaskKind, lease: TaskLease, budget: TimeInterval,
        startedAt: Date, earliestBeginDate: Date?, scheduler: TaskScheduler, log: any LogSink
    ) {
        self.identifier = identifier
        self.scope = scope
        self.kind = kind
        self.lease = lease
        self.budget = budget
        self.startedAt = startedAt
        self.earliestBeginDate = earliestBeginDate
        self.scheduler = scheduler
        self.log = log
    }

    /// Called once when the budget runs out, before the handler's task is cancelled. Keep it short:
    /// cancel the work, and call `setTaskCompleted(success:)` if the task can still say how it went.
    /// Without one, the run is marked unsuccessful at expiry.
    public var expirationHandler: (@Sendable () -> Void)? {
        get { state.withLock { $0.expirationHandler } }
        set { state.withLock { $0.expirationHandler = newValue } }
    }

    /// Whether the budget ran out.
    public var isExpired: Bool {
        state.withLock { $0.isExpired }
    }

    /// Says the work is done. Counts once: later calls are ignored and logged.
    public func setTaskCompleted(success: Bool) {
        setTaskCompleted(success: success, reason: nil)
    }

    /// Says the work is done, with a reason recorded in the run history (`pipeline history`). The
    /// reason is read by operators: counts and causes, never a health value. Counts once: later calls
    /// are ignored and logged.
    public func setTaskCompleted(success: Bool, reason: String?) {
        let (accepted, events) = state.withLock { state in
            guard state.completion == nil, !state.isClosed else {
                state.ignoredCompletions += 1
                return (false, nil as AsyncStream<Event>.Continuation?)
            }
            state.completion = Completion(success: success, reason: reason, afterExpiry: state.isExpired)
            // Before the handler returns, its `.returned` ends the run and finds the completion then;
            // waking the supervisor now would only make it wait again.
            return (true, state.hasReturned ? state.events : nil)
        }
        events?.yield(.completed)
        if !accepted {
            log.log(
                .warning,
                "\(identifier) [\(scope)]: setTaskCompleted(success: \(success)) called again; ignored, "
                    + "the first call counts")
        }
    }

    /// Gives the run back because the database is busy (`StorageError.isBusy`: a lock held past its
    /// timeout, too many connections, a server restarting): nothing of the run is recorded, its request
    /// is released for a later launch with its attempt uncounted, and the launch claims nothing more and
    /// ends with `error` once its runs in progress have finished. A busy database is nobody's failure,
    /// and a run charged an attempt for it would reach its retry limit in an outage. Completes the task;
    /// counts once, as `setTaskCompleted` does.
    public func deferRun(because error: StorageError) {
        let accepted = state.withLock { state in
            guard state.completion == nil, !state.isClosed else { return false }
            state.deferral = error
            return true
        }
        guard accepted else { return }
        setTaskCompleted(success: false, reason: "the database is busy: \(error)")
    }

    // MARK: Writes stored with the run

    /// Stores `write` with this run's record, in the same transaction, rather than now. It takes
    /// effect when the run is recorded, whatever its outcome, and not at all when the run is not: its
    /// lease was lost to another worker (a worker paused past its lease, then resumed, has its writes
    /// refused and logged), or the process died before the record was written (the request then runs
    /// again). The scheduler records many runs per transaction, so a handler whose writes all go through
    /// here costs one transaction per batch instead of one per write.
    ///
    /// Only for writes nothing in the run reads back. Calls after the run ended are ignored and logged.
    public func storeWithRun(_ write: TaskRunWrite) {
        let accepted = state.withLock { state in
            guard !state.isClosed else { return false }
            state.writes.append(write)
            return true
        }
        if !accepted { log.log(.warning, "\(identifier) [\(scope)]: a write after the run ended was ignored") }
    }

    /// Submits `request` with `.replace` when this run is recorded (`storeWithRun(_:)`): the handler's
    /// successor, stored in the same transaction as the run's end, so a run is never recorded without
    /// it and a run that is not recorded leaves the request it ran to be claimed again.
    ///
    /// - Throws: `.notPermitted` or `.tooManyPendingTaskRequests`, checked now, as `submit` does.
    public func submitWithRun(_ request: some TaskRequest) async throws(SchedulingError) {
        try await scheduler.checkSubmittable(request)
        storeWithRun(.submit(request.record))
    }

    // MARK: For the scheduler

    /// Connects the run's event stream.
    func attach(_ events: AsyncStream<Event>.Continuation) {
        state.withLock { $0.events = events }
    }

    /// Sends an event to the run's supervisor. It is yielded outside the lock: the supervisor it wakes
    /// reads this task's state at once, and would otherwise wait for the lock on another thread.
    func send(_ event: Event) {
        let events = state.withLock { state in
            if event == .returned { state.hasReturned = true }
            return state.events
        }
        events?.yield(event)
    }

    var isCompleted: Bool {
        state.withLock { $0.completion != nil }
    }

    /// Marks the task expired and calls its expiration handler, if any, outside the lock (it may
    /// call `setTaskCompleted`).
    func expire() {
        let handler = state.withLock { state in
            state.isExpired = true
            state.hadExpirationHandler = state.expirationHandler != nil
            return state.expirationHandler
        }
        handler?()
    }

    /// What the run amounted to; afterwards every `setTaskCompleted` is ignored and logged.
    func close() -> (completion: Completion?, isExpired: Bool, hadExpirationHandler: Bool, ignoredCompletions: Int) {
        state.withLock { state in
            state.isClosed = true
            state.events = nil
            // Handlers usually capture the task: dropping the closure breaks that cycle.
            state.expirationHandler = nil
            return (state.completion, state.isExpired, state.hadExpirationHandler, state.ignoredCompletions)
        }
    }

    /// Why the handler gave the run back (`deferRun(because:)`), final once the run is closed.
    var deferral: StorageError? {
        state.withLock { $0.deferral }
    }

    /// The writes to store with the run's record (`storeWithRun`), final once the run is closed.
    var writesToStore: [TaskRunWrite] {
        state.withLock { $0.writes }
    }
}

/// Does a task's work. Runs in its own Swift task, which is cancelled when the budget runs out.
public typealias TaskHandler = @Sendable (BackgroundTask) async -> Void

/// Prepares many of a task's calls at once, with their scopes, before the first: a batch of runs, the requests a
/// worker has just claimed, or a page of chain starts. A handler (or chain start) may then find, read in a few
/// queries, what each call would read in queries of its own. Best effort: each call must still work, reading for
/// itself, with nothing prepared.
public typealias BatchPreparation = @Sendable (_ scopes: [TaskScope]) async -> Void
