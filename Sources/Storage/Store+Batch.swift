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
        try driver.beginBatch()
        do {
            let result = try body(self)
            try driver.commitBatch()
            return result
        } catch {
            driver.rollbackBatch()
            throw error
        }
    }

    /// Stages one record in the open `batch` transaction. Returns the database's reason when it
    /// rejects the record (a constraint), which is then undone on its own; throws for anything that
    /// makes the whole batch fail (I/O, a lock held too long). Valid only inside `batch`.
    public func stage(_ record: InputRecord) throws(StorageError) -> StorageError? {
        try driver.stage(record)
    }

    /// Stages the coalesced writes of one user-day in the open `batch` (see `DayWrite`), with the
    /// same rejection rules as `stage(_:)`. Valid only inside `batch`.
    public func stage(_ write: DayWrite) throws(StorageError) -> StorageError? {
        try driver.stage(write)
    }

    /// Stages the writes of several user-days in the open `batch`, in order, as `stage(_: DayWrite)` would one
    /// by one, and returns the refusals by the index of their write. Faster for many new days: SQLite inserts
    /// them many rows per statement. Valid only inside `batch`.
    public func stage(_ writes: [DayWrite]) throws(StorageError) -> [(index: Int, refusal: StorageError)] {
        try driver.stage(writes)
    }

    /// Queues watch items in the open `batch`, in order, as `stage(_: InputRecord)` would one by one, and
    /// returns the refusals by the index of their item. SQLite inserts them many per statement. Valid only
    /// inside `batch`.
    public func stage(_ items: [WatchSubmission]) throws(StorageError) -> [(index: Int, refusal: StorageError)] {
        try driver.stage(items)
    }

    /// Commits what the open `batch` staged so far and begins the next transaction. Valid only
    /// inside `batch`.
    public func checkpoint() throws(StorageError) {
        try driver.checkpoint()
    }

    /// A user's time zone, `nil` for an unknown user. Usable inside and outside `batch`.
    public func timeZone(of id: UserID) throws(StorageError) -> TimeZone? {
        try driver.user(id)?.timeZone
    }
}
