import Synchronization

/// What both connections check at the start of every call. First that the caller is on the executor of the actor
/// that owns the connection (`checkIsolation`, which the owner installs through its driver once it exists; until
/// then the initializer alone has the connection): a path that reached it from another isolation (DESIGN §8,
/// bug 3) stops at its first call, every time, rather than when two threads happen to meet. Then that no other
/// call of the connection is running: neither connection is reentrant, nor locks (libpq's connections are not
/// thread-safe either, https://www.postgresql.org/docs/15/libpq-threading.html).
final class ExclusiveCalls {
    var checkIsolation: () -> Void = {}
    /// Set while a call runs.
    private let inUse = Atomic<Bool>(false)
    /// What a second call at once stops with: which connection it was.
    private let misuse: String

    init(misuse: String) {
        self.misuse = misuse + "; it belongs to the Store actor"
    }

    func enter() {
        checkIsolation()
        let (exchanged, _) = inUse.compareExchange(expected: false, desired: true, ordering: .acquiring)
        precondition(exchanged, misuse)
    }

    func leave() {
        inUse.store(false, ordering: .releasing)
    }
}
