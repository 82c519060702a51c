public import Domain
public import Foundation

/// Time for budgets that passes only when a test or simulation advances its `ManualClock`.
///
/// A wait for `duration` from `start` ends once the clock reads `start + duration` or later, checked
/// when the wait begins and at every `fire()`. Because the check also happens when the wait begins,
/// the order of "advance the clock" and "the run starts waiting" does not matter, which keeps tests
/// deterministic without sleeping.
public final class ManualExpiryTimer: ExpiryTimer {
    public let clock: ManualClock

    private struct Waiter {
        var deadline: Date
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var waiters: [UInt64: Waiter] = [:]
        var cancelled: Set<UInt64> = []
        var nextID: UInt64 = 0
        /// `expireNow()` found no wait: the next one to begin ends at once.
        var expireNextWait = false
        /// Callers of `untilWaiting(_:)`, with the count each waits for.
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    public init(clock: ManualClock) {
        self.clock = clock
    }

    public func wait(_ duration: TimeInterval, from start: Date) async throws(CancellationError) {
        let deadline = start.addingTimeInterval(duration)
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let (resume, watchers): (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) =
                        state.withLock { state in
                            if state.cancelled.remove(id) != nil { return (.failure(CancellationError()), []) }
                            if clock.now >= deadline { return (.success(()), []) }
                            if state.expireNextWait {
                                state.expireNextWait = false
                                return (.success(()), [])
                            }
                            state.waiters[id] = Waiter(deadline: deadline, continuation: continuation)
                            let count = state.waiters.count
                            let ready = state.watchers.filter { $0.count <= count }.map(\.continuation)
                            state.watchers.removeAll { $0.count <= count }
                            return (nil, ready)
                        }
                    if let resume { continuation.resume(with: resume) }
                    for watcher in watchers { watcher.resume() }
                }
            } onCancel: {
                let waiter = state.withLock { state in
                    guard let waiter = state.waiters.removeValue(forKey: id) else {
                        state.cancelled.insert(id)
                        return Waiter?.none
                    }
                    return waiter
                }
                waiter?.continuation.resume(throwing: CancellationError())
            }
        } catch {
            throw CancellationError()
        }
        state.withLock { _ = $0.cancelled.remove(id) }
    }

    /// Ends every wait whose deadline the clock has reached. Returns how many ended.
    @discardableResult
    public func fire() -> Int {
        let now = clock.now
        let due = state.withLock { state in
            let ids = state.waiters.filter { $0.value.deadline <= now }.map(\.key)
            return ids.compactMap { state.waiters.removeValue(forKey: $0) }
        }
        for waiter in due {
            waiter.continuation.resume()
        }
        return due.count
    }

    /// Advances the clock by `seconds`, then fires.
    @discardableResult
    public func advance(by seconds: TimeInterval) -> Int {
        clock.advance(by: seconds)
        return fire()
    }

    /// Ends every wait now, whatever its deadline — or, when there is none, the next wait to begin:
    /// the system ending a run early. Returns how many ended.
    @discardableResult
    public func expireNow() -> Int {
        let ended = state.withLock { state in
            let waiters = Array(state.waiters.values)
            state.waiters.removeAll()
            state.expireNextWait = waiters.isEmpty
            return waiters
        }
        for waiter in ended { waiter.continuation.resume() }
        return ended.count
    }

    /// Returns once at least `count` waits are in progress, so that a driver moves the clock only
    /// after the run it drives has started waiting.
    public func untilWaiting(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.waiters.count >= count { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Waits that have not ended yet.
    public var waiting: Int {
        state.withLock { $0.waiters.count }
    }
}
