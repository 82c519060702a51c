import Dispatch
import Domain
public import Foundation

/// Decides when a run's budget is used up.
///
/// In production the budget is real time (`WallClockExpiryTimer`), whatever the injected clock says:
/// `--now` fixes the clock, but a 30-second budget is still 30 seconds of the machine's time. Tests
/// and simulations use `ManualExpiryTimer`, where time passes only when they say so.
public protocol ExpiryTimer: Sendable {
    /// Returns once `duration` seconds have passed since `start`; throws `CancellationError` as soon
    /// as the waiting task is cancelled.
    func wait(_ duration: TimeInterval, from start: Date) async throws(CancellationError)
}

/// Real time: waits for the duration on a dispatch timer. The scheduler calls it the moment a run
/// starts, so `start` (an instant of the injected clock, which may be fixed) is not needed.
///
/// Every wait of the process shares one dispatch timer (`ExpiryTimers`), armed for the earliest deadline: a
/// launch starts and ends a wait per user, and a dispatch source of its own for each cost a measurable share of a
/// retrain's CPU, mostly in libdispatch's manager thread (docs/benchmarks.md). A cancelled wait leaves the table
/// at once.
/// (`Task.sleep` would keep each cancelled sleep queued until its deadline: a launch of 100,000 ten-minute
/// retrains would hold most of their timers.)
public struct WallClockExpiryTimer: ExpiryTimer {
    public init() {}

    public func wait(_ duration: TimeInterval, from start: Date) async throws(CancellationError) {
        let wait = TimerWait(deadline: .now() + max(0, duration))
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    wait.start(continuation)
                }
            } onCancel: {
                wait.finish(cancelled: true)
            }
        } catch {
            throw CancellationError()
        }
    }
}

/// One wait of `WallClockExpiryTimer`: its continuation, resumed once, by the shared timer or a cancellation.
private final class TimerWait: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var isCancelled = false
    }

    let deadline: DispatchTime
    private let state = Locked(State())

    init(deadline: DispatchTime) {
        self.deadline = deadline
    }

    /// Enters the shared timer's table, unless the wait was cancelled first. It enters under this wait's lock,
    /// so a cancellation sees it either not yet waiting (and it never enters) or in the table (and takes it out).
    func start(_ continuation: CheckedContinuation<Void, any Error>) {
        let started = state.withLock { state in
            guard !state.isCancelled else { return false }
            state.continuation = continuation
            ExpiryTimers.shared.add(self)
            return true
        }
        if !started { continuation.resume(throwing: CancellationError()) }
    }

    func finish(cancelled: Bool) {
        let continuation = state.withLock { state in
            state.isCancelled = state.isCancelled || cancelled
            defer { state.continuation = nil }
            return state.continuation
        }
        if cancelled {
            ExpiryTimers.shared.remove(self)
            continuation?.resume(throwing: CancellationError())
        } else {
            continuation?.resume()
        }
    }
}

/// The process's one expiry timer: the waits in progress (about as many as runs in flight), and a dispatch timer
/// armed no later than the earliest deadline among them. A wait that leaves early does not re-arm it: when the
/// timer fires it ends the waits that are due and arms itself for the next deadline, if any.
private final class ExpiryTimers: Sendable {
    static let shared = ExpiryTimers()

    private struct State {
        var waits: [ObjectIdentifier: TimerWait] = [:]
        /// When the timer fires next; `nil` while it is disarmed.
        var armed: DispatchTime?
        let timer: any DispatchSourceTimer
    }

    private let state: Locked<State>

    private init() {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "pipeline.expiry-timer"))
        state = Locked(State(timer: timer))
        timer.setEventHandler { [unowned self] in fire() }
        timer.schedule(deadline: .distantFuture)
        timer.resume()
    }

    func add(_ wait: TimerWait) {
        state.withLock { state in
            state.waits[ObjectIdentifier(wait)] = wait
            if state.armed.map({ wait.deadline < $0 }) ?? true {
                state.armed = wait.deadline
                state.timer.schedule(deadline: wait.deadline)
            }
        }
    }

    func remove(_ wait: TimerWait) {
        state.withLock { state in _ = state.waits.removeValue(forKey: ObjectIdentifier(wait)) }
    }

    private func fire() {
        let now = DispatchTime.now()
        let due = state.withLock { state in
            let due = state.waits.values.filter { $0.deadline <= now }
            for wait in due { state.waits[ObjectIdentifier(wait)] = nil }
            state.armed = state.waits.values.map(\.deadline).min()
            state.timer.schedule(deadline: state.armed ?? .distantFuture)
            return due
        }
        for wait in due { wait.finish(cancelled: false) }
    }
}
