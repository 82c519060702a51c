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
/// A cancelled wait cancels its timer at once. (`Task.sleep` would keep each cancelled sleep queued
/// until its deadline: a launch of 100,000 ten-minute retrains would hold most of their timers.)
public struct WallClockExpiryTimer: ExpiryTimer {
    public init() {}

    public func wait(_ duration: TimeInterval, from start: Date) async throws(CancellationError) {
        let wait = TimerWait()
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    wait.start(after: max(0, duration), continuation)
                }
            } onCancel: {
                wait.finish(cancelled: true)
            }
        } catch {
            throw CancellationError()
        }
    }
}

/// One wait of `WallClockExpiryTimer`: its continuation, resumed once, by the timer or a cancellation.
private final class TimerWait: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var timer: (any DispatchSourceTimer)?
        var isCancelled = false
    }

    private let state = Locked(State())
    private static let queue = DispatchQueue(label: "pipeline.expiry-timer")

    /// Starts the timer, unless the wait was cancelled first. The timer is armed under the lock, so
    /// a cancellation sees either no timer or a running one (a dispatch source must not be released
    /// before it is resumed).
    func start(after seconds: TimeInterval, _ continuation: CheckedContinuation<Void, any Error>) {
        let started = state.withLock { state in
            guard !state.isCancelled else { return false }
            let timer = DispatchSource.makeTimerSource(queue: Self.queue)
            timer.setEventHandler { [self] in finish(cancelled: false) }
            timer.schedule(deadline: .now() + seconds)
            timer.resume()
            state.continuation = continuation
            state.timer = timer
            return true
        }
        if !started { continuation.resume(throwing: CancellationError()) }
    }

    func finish(cancelled: Bool) {
        let (continuation, timer) = state.withLock { state in
            state.isCancelled = state.isCancelled || cancelled
            defer {
                state.continuation = nil
                state.timer = nil
            }
            return (state.continuation, state.timer)
        }
        timer?.cancel()
        if cancelled {
            continuation?.resume(throwing: CancellationError())
        } else {
            continuation?.resume()
        }
    }
}
