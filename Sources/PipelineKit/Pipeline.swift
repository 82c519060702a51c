@_exported public import Domain
import Foundation
import Ingestion
public import Storage

/// The library's entry point: a pipeline over one database.
///
/// ```swift
/// let pipeline = try await Pipeline.open(path: "pipeline.sqlite")
/// var entry = UserEntry(user: UserID("alice")!, day: Day("2026-03-01")!)
/// entry.symptomSeverity = .set(4)
/// try await pipeline.ingest(.entry(entry))
/// let today = try await pipeline.today(for: UserID("alice")!)
/// ```
///
/// Every call is `async` and safe to make from any task: the database belongs to an actor, and
/// other processes may use the same file at the same time.
public final class Pipeline: Sendable {
    public let store: Store
    public let clock: any Clock
    /// When the tasks run. Launches schedule with it, and ingestion moves a user's pending reminder
    /// and insight when their reminder hour or time zone changes.
    public let schedule: PipelineTaskSchedule
    let log: any LogSink

    init(store: Store, clock: any Clock, log: any LogSink, schedule: PipelineTaskSchedule = PipelineTaskSchedule()) {
        self.store = store
        self.clock = clock
        self.log = log
        self.schedule = schedule
    }

    /// Opens the database at `path` (created with mode 0600 if absent, migrated to this version's
    /// schema). `clock` decides what "today" is; `log` receives diagnostics, never field values.
    public static func open(
        path: String, clock: any Clock = SystemClock(), log: any LogSink = SilentLog(),
        schedule: PipelineTaskSchedule = PipelineTaskSchedule()
    ) async throws(PipelineError) -> Pipeline {
        do {
            return Pipeline(store: try Store(path: path, clock: clock), clock: clock, log: log, schedule: schedule)
        } catch {
            throw .storage(error)
        }
    }

    /// Opens the database at `path` only if it exists (an SQLite file, or a PostgreSQL database
    /// pipeline has set up): a mistyped path is `StorageError.noDatabase`, and nothing is created.
    /// What reads or runs tasks opens this way; only ingestion and `pipeline init` create.
    public static func openExisting(path: String, clock: any Clock = SystemClock(), log: any LogSink = SilentLog())
        async throws(PipelineError) -> Pipeline
    {
        do {
            return Pipeline(store: try Store.existing(path, clock: clock), clock: clock, log: log)
        } catch {
            throw .storage(error)
        }
    }

    /// Runs a store call, mapping its error.
    func storage<R: Sendable>(_ body: (Store) async throws(StorageError) -> R) async throws(PipelineError) -> R {
        do {
            return try await body(store)
        } catch {
            throw .storage(error)
        }
    }
}

// MARK: - Reads

extension Pipeline {
    /// The user, or `nil` if the database has never seen them.
    public func user(_ id: UserID) async throws(PipelineError) -> User? {
        try await storage { (store) throws(StorageError) in try await store.user(id) }
    }

    public func users() async throws(PipelineError) -> [User] {
        try await storage { (store) throws(StorageError) in try await store.users() }
    }

    /// The user's log for `day`, or `nil`.
    public func dailyLog(user: UserID, day: Day) async throws(PipelineError) -> DailyLog? {
        try await storage { (store) throws(StorageError) in try await store.dailyLog(user: user, day: day) }
    }

    /// The user's logs from `first` through `last` (either open when `nil`), in day order. Rows
    /// dated after the user's today (time-zone travel, clock skew) are included: they are stored
    /// data. Training never uses a day before it has passed.
    public func dailyLogs(user: UserID, from first: Day? = nil, through last: Day? = nil)
        async throws(PipelineError) -> [DailyLog]
    {
        try await storage { (store) throws(StorageError) in
            try await store.dailyLogs(user: user, from: first, through: last)
        }
    }

    /// The user's today by the clock in their time zone, and its log if there is one. A row dated
    /// tomorrow is never today's (DESIGN §8, bug 6).
    public func today(for id: UserID) async throws(PipelineError) -> (day: Day, log: DailyLog?) {
        guard let user = try await user(id) else { throw .unknownUser(id.rawValue) }
        let day = user.today(at: clock.now)
        return (day, try await dailyLog(user: id, day: day))
    }

    /// The user's settings over the registered defaults (notifications on until turned off).
    public func settings(for id: UserID) async throws(PipelineError) -> UserSettings {
        try await storage { (store) throws(StorageError) in try await store.settings(for: id) }
    }

    /// The schema version of the open database.
    public func schemaVersion() async throws(PipelineError) -> Int {
        try await storage { (store) throws(StorageError) in try await store.schemaVersion() }
    }

    /// Counts for `pipeline status`.
    public func summary() async throws(PipelineError) -> StoreSummary {
        try await storage { (store) throws(StorageError) in try await store.summary() }
    }
}
