import Foundation

/// A value shared between threads, every access under one lock.
///
/// Built on `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`: ThreadSanitizer follows
/// pthread locking, while on Linux `Mutex` waits on futexes it cannot see, so it reports the very
/// accesses a `Mutex` guards as races. Those false alarms would bury a real race in the
/// `swift test --sanitize=thread` run the README asks for.
public final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is read and written only inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value. Not reentrant: `body` must not call
    /// `withLock` on the same instance.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
