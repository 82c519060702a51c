public import Domain

/// Daily logs (and the user and served model a retrain reads with them, and a long drain's watch items) read on a
/// connection of its own to a store's database, beside the store's actor.
///
/// A cohort retrain's workers read their users' logs at the same time instead of queueing on the one connection
/// the store's actor owns, which stays free for the claims and the records they write. SQLite in write-ahead-log
/// mode lets readers work while a writer commits (https://www.sqlite.org/wal.html#concurrency); a PostgreSQL
/// server runs each connection's statements in a process of its own, and a reader's session is read-only. Each
/// read sees what was committed when it started, as a read through the store does. The connection belongs to
/// this actor and is closed with it.
///
/// Open one per concurrent worker with `Store.logReader()`; a reader used by several tasks serializes them again.
public actor LogReader {
    private let driver: any StorageDriver
    /// Where the actor's calls run: a thread of its own (`ConnectionThread`), not the pool every task shares.
    private nonisolated let thread = ConnectionThread(name: "pipeline reader")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { thread.asUnownedSerialExecutor() }

    /// Opens a connection to a database a store has already opened and migrated: nothing is migrated here, and a
    /// schema this build does not know is refused as the store refuses it.
    init(address: StorageAddress) throws(StorageError) {
        switch address {
        case .sqlite(let path): driver = try SQLiteDriver(path: path)
        case .postgresql(let url): driver = try PostgreSQLDriver(url: url, readOnly: true)
        }
        try Migrator(address.backend, location: address.displayText).checkCompatible(driver)
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

    /// The user's day values and sources through `last`, in day order (`dailyLogs(user:through:)` without the
    /// notes): what a retrain learns from.
    public func sourcedDayValues(user: UserID, through last: Day) throws(StorageError) -> [SourcedDayValues] {
        try driver.sourcedDayValues(user: user, through: last)
    }

    /// Each user's day values through `last`, in day order, in the order of `users` (each named once), in one
    /// query: what `dailyLogs(user:through:)` returns for each, without notes and sources; what a population model
    /// is pooled from.
    public func dayValues(users: [UserID], through last: Day) throws(StorageError) -> [[DayValues]] {
        try driver.dayValues(users: users, through: last)
    }

    /// Queued watch items of any of `kinds`, oldest first, at most `limit` with ids after `after`: what
    /// `Store.watchItems(kinds:user:after:limit:)` returns. A long drain reads its next page here while the
    /// store writes the one before.
    public func watchItems(kinds: [String], user: UserID? = nil, after: Int64 = 0, limit: Int) throws(StorageError)
        -> [WatchItem]
    {
        try driver.watchItems(kinds: kinds, user: user, after: after, limit: limit)
    }

    /// Every user's id, in order: the ids of what `Store.users()` returns, without their time zones (much less
    /// memory). A population is pooled over them while a first launch's store writes the chains it starts.
    public func userIDs() throws(StorageError) -> [UserID] {
        try driver.userIDs()
    }

    /// The user, or `nil` if unknown: what `Store.user(_:)` returns.
    public func user(_ id: UserID) throws(StorageError) -> User? {
        try driver.user(id)
    }

    /// The stored time-zone names of those of `users` the database holds: what `Store.timeZoneNames(of:)`
    /// returns. A streamed ingestion's reading thread reads here the zones of the days it must check.
    public func timeZoneNames(of users: [UserID]) throws(StorageError) -> [UserID: String] {
        try driver.timeZoneNames(of: users)
    }

    /// The artifact served for `scope`: what `Store.servingModel(scope:)` returns. With the user and their
    /// logs, all a retrain reads.
    public func servingModel(scope: String) throws(StorageError) -> StoredModel? {
        try driver.servingModel(scope: scope)
    }

    // What a batch of retrains reads, in one query each instead of one per user.

    /// Those of `ids` that exist, ordered by id: `user(_:)` for each.
    public func users(_ ids: [UserID]) throws(StorageError) -> [User] {
        try driver.users(ids)
    }

    /// `sourcedDayValues(user:through:)` for each of `users` (each named once), in their order.
    public func sourcedDayValues(users: [UserID], through last: Day) throws(StorageError) -> [[SourcedDayValues]] {
        try driver.sourcedDayValues(users: users, through: last)
    }

    /// `servingModel(scope:)` for each of `scopes`, by scope; a scope with no model served is left out.
    public func servingModels(scopes: [String]) throws(StorageError) -> [String: StoredModel] {
        try driver.servingModels(scopes: scopes)
    }
}

extension Store {
    /// A `LogReader` on a connection of its own to this store's database. On PostgreSQL each reader is one more
    /// connection to the server, for as long as the reader lives.
    public nonisolated func logReader() throws(StorageError) -> LogReader {
        try LogReader(address: address)
    }
}
