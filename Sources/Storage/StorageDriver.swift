import Domain
import Foundation

/// Every database operation pipeline needs, named by what it does: the seam between the `Store`
/// actor and a database. `SQLiteDriver` (one file, one host) and `PostgreSQLDriver` (one server,
/// many hosts) implement it; nothing above Storage writes SQL.
///
/// The contract each implementation keeps — one shared test suite runs against both:
/// - the DailyLog merge rules live in the database's upsert, so concurrent writers cannot break them;
/// - each operation documented as one transaction is atomic, and a crash leaves the previous state;
/// - a claim hands a due request to exactly one worker, however many claim at once;
/// - values are always bound parameters, and errors carry SQL, never bound values.
///
/// A driver is not thread-safe: the `Store` actor owns it and calls it from its executor only.
/// The methods' meaning is documented on `Store`, which forwards to them.
protocol StorageDriver: AnyObject {
    /// Makes every statement from now on call `check` first (`Connection.checkIsolation`): the
    /// owning `Store` passes its own executor check, so the driver cannot be used from outside it.
    func checkIsolation(with check: @escaping () -> Void)

    // Schema and health
    func schemaVersion() throws(StorageError) -> Int
    func summary() throws(StorageError) -> StoreSummary
    func integrityCheck() throws(StorageError) -> String
    func reclaimLogSpace() throws(StorageError)
    func refreshQueueStatistics() throws(StorageError)

    // Batches (`Store.batch`): one open write transaction, staged into record by record.
    func beginBatch() throws(StorageError)
    func commitBatch() throws(StorageError)
    func rollbackBatch()
    func checkpoint() throws(StorageError)
    func stage(_ record: InputRecord) throws(StorageError) -> StorageError?
    func stage(_ write: DayWrite) throws(StorageError) -> StorageError?
    func stage(_ writes: [DayWrite]) throws(StorageError) -> [(index: Int, refusal: StorageError)]
    func stage(_ items: [WatchSubmission]) throws(StorageError) -> [(index: Int, refusal: StorageError)]
    func stageCompletion(watchItem id: Int64, applying entry: UserEntry) throws(StorageError) -> Bool
    func stageCompletions(_ completions: [WatchCompletion]) throws(StorageError) -> Set<Int64>
    func stageFailure(watchItem id: Int64, error message: String) throws(StorageError) -> Bool

    // Users, daily logs, settings
    func save(_ user: User) throws(StorageError)
    func user(_ id: UserID) throws(StorageError) -> User?
    func users() throws(StorageError) -> [User]
    func userIDs() throws(StorageError) -> [UserID]
    func timeZoneNames() throws(StorageError) -> [UserID: String]
    func write(_ entry: UserEntry) throws(StorageError)
    func write(_ metrics: HealthMetrics) throws(StorageError)
    func dailyLog(user: UserID, day: Day) throws(StorageError) -> DailyLog?
    func dailyLogs(user: UserID, from first: Day?, through last: Day?) throws(StorageError) -> [DailyLog]
    func dailyLogs(users: [UserID], through last: Day) throws(StorageError) -> [[DailyLog]]
    func dayValues(users: [UserID], through last: Day) throws(StorageError) -> [[DayValues]]
    func sourcedDayValues(user: UserID, through last: Day) throws(StorageError) -> [SourcedDayValues]
    func settings(for user: UserID) throws(StorageError) -> UserSettings

    // Watch queue
    func enqueue(_ item: WatchSubmission) throws(StorageError) -> Int64
    func watchItems(kinds: [String], user: UserID?, after: Int64, limit: Int) throws(StorageError) -> [WatchItem]
    func allWatchItems(user: UserID?) throws(StorageError) -> [WatchItem]
    func complete(watchItem id: Int64, applying entry: UserEntry) throws(StorageError) -> Bool
    func recordFailure(watchItem id: Int64, error message: String) throws(StorageError) -> Bool
    func deadLetters(user: UserID?) throws(StorageError) -> [DeadLetter]

    // Outbox
    func post(_ message: NewOutboxMessage) throws(StorageError) -> Int64?
    func hasOutboxMessage(user: UserID, kind: String, day: Day) throws(StorageError) -> Bool
    func outboxMessages(user: UserID?, includeAcknowledged: Bool) throws(StorageError) -> [OutboxMessage]
    func acknowledgeOutboxMessages(_ ids: [Int64]) throws(StorageError) -> [Int64: OutboxAcknowledgement]

    // Models
    func save(_ model: StoredModel) throws(StorageError) -> Int64
    func servingModel(scope: String) throws(StorageError) -> StoredModel?
    func modelHistory(scope: String, limit: Int) throws(StorageError) -> [StoredModel]

    // Evaluations
    func save(_ evaluation: StoredEvaluation) throws(StorageError) -> Int64
    func evaluations(limit: Int) throws(StorageError) -> [StoredEvaluation]

    // Scheduler
    func submit(_ requests: [NewTaskRequest], replacing: Bool) throws(StorageError) -> Int
    func makeTaskRequestsDue(identifiers: [String], scope: String?) throws(StorageError) -> Int
    func cancelTaskRequests(identifier: String?, scope: String?) throws(StorageError) -> Int
    func taskRequests(identifier: String?, scope: String?) throws(StorageError) -> [TaskRequestRecord]
    func latestTaskRequestID() throws(StorageError) -> Int64
    func dueTaskRequestCount(identifiers: [String], scope: String?, at now: Int64, upToRequestID: Int64)
        throws(StorageError) -> Int
    func usersWithoutTaskRequest(identifier: String, after: String?, limit: Int) throws(StorageError) -> [User]
    func heldOrWaitingTaskRequests(
        identifiers: [String], scope: String?, at now: Int64, upToRequestID: Int64, isOnExternalPower: Bool,
        hasNetworkConnectivity: Bool, limit: Int
    ) throws(StorageError) -> [TaskRequestRecord]
    func claimTaskRequests(_ claim: TaskClaim) throws(StorageError) -> [ClaimedTaskRequest]
    func finishTaskRuns(_ completions: [TaskRunCompletion], releasing: [TaskClaimRelease]) throws(StorageError)
        -> [TaskRunFinish]
    func taskRuns(identifier: String?, scope: String?, limit: Int?, includeUnfinished: Bool) throws(StorageError)
        -> [TaskRunRecord]
    func brokenTaskChains() throws(StorageError) -> [TaskRunRecord]
    func scopesNeverSubmitted(identifier: String, perUser: Bool) throws(StorageError) -> [String]
    func staleTaskLeases(refreshAge: TimeInterval, processingAge: TimeInterval) throws(StorageError)
        -> [TaskRequestRecord]
    func taskRequestCounts() throws(StorageError) -> [String: TaskRequestCounts]
    func taskRunTotals() throws(StorageError) -> [TaskRunTotal]

    // Operations (`Store+Operations.swift`)
    func recordLaunch(worker: String) throws(StorageError)
    func lastLaunch() throws(StorageError) -> LaunchRecord?
    func discardedTaskRequests(identifier: String?, scope: String?) throws(StorageError) -> [DiscardedTaskRequest]
    func discardedTaskRequestCounts() throws(StorageError) -> [String: DiscardedTaskRequestCounts]
    func discardRequest(_ id: Int64, error: String?, cause: String) throws(StorageError)
    func cancelTaskRequests(ids: [Int64]?, identifier: String?, scope: String?) throws(StorageError)
        -> TaskRequestCancellation
    func retryDiscardedTaskRequests(ids: [Int64]?, identifier: String?, scope: String?) throws(StorageError) -> [Int64]
    func overdueTaskRequests(identifier: String, dueBefore: Date) throws(StorageError) -> OverdueTaskRequests
    func deadLetters(user: UserID?, includeResolved: Bool) throws(StorageError) -> [DeadLetter]
    func requeueDeadLetters(ids: [Int64]?, user: UserID?) throws(StorageError) -> [Int64: Int64]
    func pruneHistory(before: Date, limit: Int) throws(StorageError) -> PrunedHistory

    // Copy (`Store+Copy.swift`): an export reads one snapshot, an import writes one transaction.
    func tablesHoldingRows() throws(StorageError) -> [CopyTable]
    func beginExport() throws(StorageError)
    func endExport()
    func exportRows(of table: CopyTable, after key: [CopyValue]?, limit: Int) throws(StorageError) -> [[CopyValue]]
    func beginImport() throws(StorageError) -> [CopyTable]
    func importRows(_ rows: [[CopyValue]], into table: CopyTable) throws(StorageError)
    func finishImport() throws(StorageError)
    func abandonImport()

    // Test hooks
    func executeForTesting(_ sql: String) throws(StorageError)
    func migrationCountForTesting() throws(StorageError) -> Int
}

/// Where a day's values are in a row both drivers read: `day` at `first`, the three user-only fields after it,
/// then the four metrics, each `stride` columns after the one before (1: the values alone; 2: each value followed
/// by its source, which the table's CHECK makes NULL exactly when the value is, and whose first byte tells
/// 'user' from 'health').
struct DayColumns {
    var first: Int32
    var stride: Int32

    /// `day, symptom_severity, mood, energy, hrv, resting_heart_rate, step_count, sleep_duration` from `first`.
    static func values(from first: Int32) -> DayColumns { DayColumns(first: first, stride: 1) }
    /// `day, symptom_severity, mood, energy, hrv, hrv_source, …, sleep_duration, sleep_duration_source` from 0.
    static let sourced = DayColumns(first: 0, stride: 2)

    func value(_ field: Field) -> Int32 {
        switch field {
        case .symptomSeverity: first + 1
        case .mood: first + 2
        case .energy: first + 3
        case .hrv: first + 4
        case .restingHeartRate: first + 4 + stride
        case .stepCount: first + 4 + 2 * stride
        case .sleepDuration: first + 4 + 3 * stride
        }
    }

    /// A metric's source, in a row of `sourced`.
    func source(_ metric: Field) -> Int32 { value(metric) + 1 }
}

extension StorageDriver {
    /// One user after another, each as `dailyLogs(user:from:through:)`: where a query costs no round trip.
    func dailyLogs(users: [UserID], through last: Day) throws(StorageError) -> [[DailyLog]] {
        var logs: [[DailyLog]] = []
        logs.reserveCapacity(users.count)
        for user in users { logs.append(try dailyLogs(user: user, from: nil, through: last)) }
        return logs
    }

    /// Stages `items` one by one with `stageOne`, returning the refusals by their index in the whole
    /// array the slice is of.
    func stageEach<Item>(
        _ items: ArraySlice<Item>, _ stageOne: (Item) throws(StorageError) -> StorageError?
    ) throws(StorageError) -> [(index: Int, refusal: StorageError)] {
        var refusals: [(index: Int, refusal: StorageError)] = []
        for index in items.indices {
            if let refusal = try stageOne(items[index]) { refusals.append((index, refusal)) }
        }
        return refusals
    }
}

extension User {
    /// A user read back from the `users` table, the same on every driver. Rows are written only
    /// through the drivers' upserts, so an invalid id is a row pipeline did not write and is skipped;
    /// a zone that no longer resolves is an error, because reading it as UTC would silently move
    /// the user's days and reminders.
    static func stored(id: String, timeZone name: String) throws(StorageError) -> User? {
        guard let id = UserID(id) else { return nil }
        guard let timeZone = TimeZone.iana(name) else { throw .unknownTimeZone(user: id.rawValue, zone: name) }
        return User(id: id, timeZone: timeZone)
    }
}
