public import Domain

/// Daily logs read on a connection of its own to a store's SQLite file, beside the store's actor.
///
/// SQLite in write-ahead-log mode lets readers work while a writer commits
/// (https://www.sqlite.org/wal.html#concurrency), so a cohort retrain's workers read their users' logs at the same
/// time instead of queueing on the one connection the store's actor owns. Each read sees what was committed when
/// it started, as a read through the store does. The connection belongs to this actor and is closed with it.
///
/// Open one per concurrent worker with `Store.logReader()`; a reader used by several tasks serializes them again.
public actor LogReader {
    private let driver: SQLiteDriver

    init(path: String, clock: any Clock) throws(StorageError) {
        driver = try SQLiteDriver(readerAt: path, clock: clock)
        // As the store's connection: a statement run off this actor traps (DESIGN §8, bug 3). `unowned`: the
        // reader owns the driver, which owns the check.
        driver.checkIsolation { [unowned self] in
            self.preconditionIsolated("a log reader used outside its actor (DESIGN §8, bug 3)")
        }
    }

    /// The user's logs from `first` through `last` (either open when `nil`), in day order: what
    /// `Store.dailyLogs(user:from:through:)` returns.
    public func dailyLogs(user: UserID, from first: Day? = nil, through last: Day? = nil) throws(StorageError)
        -> [DailyLog]
    {
        try driver.dailyLogs(user: user, from: first, through: last)
    }
}

extension Store {
    /// A `LogReader` on a connection of its own to this store's SQLite file, or `nil` where logs are read
    /// through the store: on PostgreSQL, where a process keeps one connection to the server (a fleet's
    /// connection count is its process count), and for an in-memory SQLite database, which a second
    /// connection would not see.
    public nonisolated func logReader() throws(StorageError) -> LogReader? {
        guard let path = readerPath else { return nil }
        return try LogReader(path: path, clock: clock)
    }
}
