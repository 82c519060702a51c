public import Domain

/// Users, their daily logs and settings. The merge rules of DESIGN §2 live in each driver's upsert,
/// so that concurrent writers cannot break them: whichever statement commits last, a `user` value
/// is never replaced by a `health` one.
extension Store {
    /// Stores what a person typed for a day, creating the user (UTC) if new. Runs in its own
    /// transaction; the values are assumed valid (`UserEntry.validate()`), and the database's CHECK
    /// constraints reject any that are not.
    public func write(_ entry: UserEntry) throws(StorageError) {
        try driver.write(entry)
    }

    /// Merges one day of health metrics, creating the user (UTC) if new. Runs in its own transaction.
    public func write(_ metrics: HealthMetrics) throws(StorageError) {
        try driver.write(metrics)
    }

    /// The user's log for `day`, or `nil` when nothing was stored for it.
    public func dailyLog(user: UserID, day: Day) throws(StorageError) -> DailyLog? {
        try driver.dailyLog(user: user, day: day)
    }

    /// The user's logs from `first` through `last` (either open when `nil`), in day order.
    public func dailyLogs(user: UserID, from first: Day? = nil, through last: Day? = nil) throws(StorageError)
        -> [DailyLog]
    {
        try driver.dailyLogs(user: user, from: first, through: last)
    }

    /// The user's day values and sources through `last`, in day order: what a retrain learns from
    /// (`LogReader.sourcedDayValues(user:through:)`, on the store's connection).
    public func sourcedDayValues(user: UserID, through last: Day) throws(StorageError) -> [SourcedDayValues] {
        try driver.sourcedDayValues(user: user, through: last)
    }

    /// Each user's day values through `last`, in the order of `users`: what a population is pooled from
    /// (`LogReader.dayValues(users:through:)`, on the store's connection).
    public func dayValues(users: [UserID], through last: Day) throws(StorageError) -> [[DayValues]] {
        try driver.dayValues(users: users, through: last)
    }

    /// Every user's id, in order (`LogReader.userIDs()`, on the store's connection).
    public func userIDs() throws(StorageError) -> [UserID] {
        try driver.userIDs()
    }

    /// Creates the user or changes their time zone. Runs in its own transaction.
    public func save(_ user: User) throws(StorageError) {
        try driver.save(user)
    }

    /// The user with this id, or `nil`.
    public func user(_ id: UserID) throws(StorageError) -> User? {
        try driver.user(id)
    }

    /// Every user, ordered by id. Throws `unknownTimeZone` for a user whose stored zone does not
    /// resolve.
    public func users() throws(StorageError) -> [User] {
        try driver.users()
    }

    /// Every user's stored time-zone name, resolved or not: ingestion reads them before its input,
    /// so that a user whose zone no longer resolves stops only their own lines, and a user record
    /// in the same input can set it again.
    public func timeZoneNames() throws(StorageError) -> [UserID: String] {
        try driver.timeZoneNames()
    }

    /// The user's settings: what they set, over the registered defaults for every key they never
    /// set (DESIGN §8, bug 8). A user with no row at all reads as all defaults.
    public func settings(for user: UserID) throws(StorageError) -> UserSettings {
        try driver.settings(for: user)
    }
}
