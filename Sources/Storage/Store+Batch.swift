public import Domain
public import Foundation

extension Store {
    /// Runs `body` on the store's executor inside a write transaction, for streaming a large input
    /// without holding it in memory: `body` reads, decodes and calls `stage(_:)` record by record.
    ///
    /// Commits when `body` returns, rolls back when it throws. Inside, `checkpoint()` commits what was
    /// staged so far and opens the next transaction (a long non-atomic ingest); call it only when a
    /// rollback should keep what came before. Not reentrant, and `body` must not suspend: the
    /// transaction belongs to this call alone.
    public func batch<R: Sendable>(_ body: @Sendable (isolated Store) throws -> R) throws -> R {
        let before = knownUsers
        try connection.begin(immediate: true)
        batchMilliseconds = Store.milliseconds(clock.now)
        defer { batchMilliseconds = nil }
        do {
            let result = try body(self)
            try connection.commit()
            return result
        } catch {
            try? connection.rollback()
            knownUsers = before
            throw error
        }
    }

    /// Stages one record in the open `batch` transaction. Returns the database's reason when it
    /// rejects the record (a constraint), which is then undone on its own; throws for anything that
    /// makes the whole batch fail (I/O, a lock held too long). Valid only inside `batch`.
    public func stage(_ record: InputRecord) throws(StorageError) -> StorageError? {
        try constraintRefusal { () throws(StorageError) in try apply(record) }
    }

    /// Stages the coalesced writes of one user-day in the open `batch` (see `DayWrite`), with the
    /// same rejection rules as `stage(_:)`. Valid only inside `batch`.
    public func stage(_ write: DayWrite) throws(StorageError) -> StorageError? {
        try constraintRefusal { () throws(StorageError) in try apply(write) }
    }

    /// Runs `write`, returning a constraint's refusal instead of throwing it: SQLite has already
    /// undone the failing statement alone, and the rest of the transaction goes on.
    private func constraintRefusal(_ write: () throws(StorageError) -> Void) throws(StorageError) -> StorageError? {
        do throws(StorageError) {
            try write()
            return nil
        } catch  where error.isConstraint {
            return error
        }
    }

    /// Commits what the open `batch` staged so far and begins the next transaction. Valid only
    /// inside `batch`.
    public func checkpoint() throws(StorageError) {
        try connection.commit()
        try connection.begin(immediate: true)
    }

    /// A user's time zone, `nil` for an unknown user. Usable inside and outside `batch`.
    public func timeZone(of id: UserID) throws(StorageError) -> TimeZone? {
        try user(id)?.timeZone
    }
}
