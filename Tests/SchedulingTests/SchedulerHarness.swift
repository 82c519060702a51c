import Domain
import Foundation
import Scheduling
import Storage
import TestSupport

/// A database, a manual clock with a manual expiry timer, switchable conditions and a log that
/// keeps what it is told: everything a scheduler test needs, with time that moves only when the test
/// says so.
final class SchedulerHarness: Sendable {
    let database: TestDatabase
    let store: Store
    let timer: ManualExpiryTimer
    let conditions = ManualConditions()
    let log = RecordingLog()
    let configuration: SchedulerConfiguration

    static let permitted: [TaskIdentifier] = ["daily", "hourly", "refresh", "processing", "global-sweep"]

    /// A harness on a fresh database of `backend`: every scheduler test body runs on each backend.
    /// Its default configuration retries without jitter and never prunes (`forTests`);
    /// `RetryLimitTests` checks both.
    init(
        _ backend: TestBackend, now: Date = Date(iso: "2026-03-15T12:00:00Z"),
        configuration: SchedulerConfiguration = .forTests
    ) throws {
        database = TestDatabase(backend, now: now)
        store = try Store(path: database.path, clock: database.clock)
        timer = ManualExpiryTimer(clock: database.clock)
        self.configuration = configuration
    }

    var clock: ManualClock { database.clock }
    var now: Date { database.clock.now }

    /// A fresh scheduler on the same database, as a new process would make at its launch.
    func scheduler(store: Store? = nil) -> TaskScheduler {
        TaskScheduler(
            store: store ?? self.store, permittedIdentifiers: Self.permitted, configuration: configuration,
            clock: clock, conditions: conditions, timer: timer, log: log)
    }

    /// Runs one launch with `tasks` registered.
    @discardableResult
    func launch(_ tasks: [TestTask], plan: LaunchPlan = LaunchPlan(jobs: 1), store: Store? = nil) async throws
        -> LaunchReport
    {
        try await scheduler(store: store).launch(plan) { registrar throws(SchedulingError) in
            for task in tasks {
                try registrar.register(
                    task.identifier, for: task.scope, cadence: task.cadence, startingWith: task.chainStart,
                    preparingChainStarts: task.prepareChainStarts, preparingBatches: task.prepare,
                    using: task.handler)
            }
        }
    }

    /// Adds users to the database.
    func addUsers(_ ids: [String], timeZone: TimeZone = .utc) async throws {
        for id in ids {
            try await store.save(User(id: .literal(id), timeZone: timeZone))
        }
    }

    /// Finished runs from the history.
    func history(_ identifier: TaskIdentifier? = nil, scope: TaskScope? = nil) async throws -> [TaskRun] {
        try await scheduler().history(identifier: identifier, scope: scope)
    }
}

/// A task registration for tests: identifier, which scopes its chain covers, how it starts, and the
/// handler.
struct TestTask: Sendable {
    var identifier: TaskIdentifier
    var scope: ChainScope = .everyUser
    var chainStart: ChainStart
    var handler: TaskHandler
    /// The cadence it is registered with, if any (`TaskRun.periods`).
    var cadence: TimeInterval? = nil
    /// Its batch preparation, if any (`BatchPreparation`).
    var prepare: BatchPreparation? = nil
    /// Its chain starts' preparation, if any.
    var prepareChainStarts: BatchPreparation? = nil

    /// A refresh task whose chain starts due at `firstAt` (as soon as possible when `nil`), or
    /// `interval` after the launch that starts it when `firstAfterInterval` (as the app did), and
    /// whose handler, as its first statement, submits its successor `interval` seconds after the date
    /// it was due (a fixed rate), then completes.
    static func periodic(
        _ identifier: TaskIdentifier, every interval: TimeInterval, scope: ChainScope = .everyUser,
        firstAt: Date? = nil, firstAfterInterval clock: (any Clock)? = nil, success: Bool = true
    ) -> TestTask {
        TestTask(
            identifier: identifier, scope: scope,
            chainStart: { scope, _ in
                let first = clock.map { $0.now.addingTimeInterval(interval) } ?? firstAt
                return AppRefreshTaskRequest(identifier: identifier, scope: scope, earliestBeginDate: first)
            },
            handler: { task in
                let next = nextFixedRate(
                    after: task.earliestBeginDate ?? task.startedAt, every: interval, now: task.startedAt)
                do {
                    try await task.scheduler.submit(
                        AppRefreshTaskRequest(identifier: identifier, scope: task.scope, earliestBeginDate: next),
                        policy: .replace)
                } catch {
                    task.setTaskCompleted(success: false, reason: "\(error)")
                    return
                }
                task.expirationHandler = {}
                task.setTaskCompleted(success: success)
            })
    }
}

/// The first instant `start + k × interval` (k ≥ 1) after `now`.
func nextFixedRate(after start: Date, every interval: TimeInterval, now: Date) -> Date {
    var next = start.addingTimeInterval(interval)
    while next <= now { next = next.addingTimeInterval(interval) }
    return next
}

extension SchedulerConfiguration {
    /// The defaults, with retry delays exactly 1, 2, 4 … minutes and no pruning, so tests name exact
    /// retry instants and count the whole history.
    static var forTests: SchedulerConfiguration {
        var configuration = SchedulerConfiguration()
        configuration.retryJitter = 0
        configuration.historyRetention = nil
        return configuration
    }
}

/// Keeps every message, for tests that check what was logged.
final class RecordingLog: LogSink {
    private let messages = Locked<[(LogLevel, String)]>([])

    func log(_ level: LogLevel, _ message: String) {
        messages.withLock { $0.append((level, message)) }
    }

    func lines(atLeast level: LogLevel = .debug) -> [String] {
        messages.withLock { $0.filter { $0.0 >= level }.map(\.1) }
    }
}

extension UserID {
    static let ada = UserID.literal("ada")
    static let bob = UserID.literal("bob")
}
