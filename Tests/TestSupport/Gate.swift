import Domain

/// A one-shot signal: `wait()` suspends until `open()` (or returns at once after it).
public final class Gate: Sendable {
    public init() {}

    private let state = Locked<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    public func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    public func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    /// Waits until the gate opens or the calling task is cancelled (then it opens the gate). A test
    /// body waits with this, not `wait()`: a test past its `.timeLimit` is cancelled, and a wait
    /// that ignored it would keep the run hanging after the failure is recorded.
    public func waitOrCancellation() async {
        await withTaskCancellationHandler {
            await wait()
        } onCancel: {
            open()
        }
    }

    public var isOpen: Bool { state.withLock { $0.isOpen } }
}
