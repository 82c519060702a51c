import Domain
public import Foundation
public import Scheduling
import Storage

/// The pipeline's four periodic tasks (DESIGN §6), ported from the app's `BGTaskScheduler` chain.
///
/// | identifier | kind | cadence |
/// |---|---|---|
/// | `health-refresh` | refresh | every 4 h: drains the watch queue by kind |
/// | `ml-retrain` | processing, external power | every `retrainIntervalDays`, in the user's night: retrains the user's model |
/// | `engagement-daily` | refresh | daily at the user's reminder hour: a "log today" reminder |
/// | `weekly-insight` | refresh | weekly, Sunday at the reminder hour: one insight from the model |
///
/// Every chain is per user. Every handler's first statement submits its successor with `.replace`;
/// the launch starts each chain with `.keep`.
public enum PipelineTasks {
    public static let healthRefresh: TaskIdentifier = "health-refresh"
    public static let mlRetrain: TaskIdentifier = "ml-retrain"
    public static let engagementDaily: TaskIdentifier = "engagement-daily"
    public static let weeklyInsight: TaskIdentifier = "weekly-insight"

    /// The permitted identifiers, in the order they are registered.
    public static let identifiers: [TaskIdentifier] = [healthRefresh, mlRetrain, engagementDaily, weeklyInsight]

    /// The app-refresh tasks, which `pipeline run` runs. The processing task, `ml-retrain`, runs in
    /// `pipeline retrain` launches: the server's maintenance window, as iOS runs processing tasks
    /// while the phone charges at night.
    public static let refreshIdentifiers: Set<TaskIdentifier> = [healthRefresh, engagementDaily, weeklyInsight]

    /// What each task is, for `pipeline status`.
    public static func definitions(_ schedule: PipelineTaskSchedule = PipelineTaskSchedule())
        -> [PipelineTaskDefinition]
    {
        let hours = schedule.healthRefreshInterval / 3600
        let days = schedule.retrainIntervalDays
        return [
            PipelineTaskDefinition(
                identifier: healthRefresh, kind: .appRefresh,
                cadence: "every \(hours.rounded() == hours ? String(Int(hours)) : String(hours)) h"),
            PipelineTaskDefinition(
                identifier: mlRetrain, kind: .processing, cadence: "every \(days) day\(days == 1 ? "" : "s")",
                requiresExternalPower: true),
            PipelineTaskDefinition(
                identifier: engagementDaily, kind: .appRefresh, cadence: "daily at the reminder hour"),
            PipelineTaskDefinition(
                identifier: weeklyInsight, kind: .appRefresh,
                cadence: "weekly, \(Self.weekdayNames[schedule.weeklyInsightWeekday]) at the reminder hour"),
        ]
    }

    static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// Registers the four handlers. Each registration carries the chain's first request, which the
    /// launch submits with `.keep` for every user.
    static func register(on registrar: TaskRegistrar, context: TaskContext) throws(SchedulingError) {
        let cadence = cadences(context.schedule)
        let settings = context.prepareRefreshChainStarts
        let chains: [(TaskIdentifier, ChainStart, BatchPreparation?, BatchPreparation?, TaskHandler)] = [
            (healthRefresh, context.firstHealthRefresh, nil, nil, context.runHealthRefresh),
            (mlRetrain, context.firstRetrain, nil, context.prepareRetrains, context.runRetrain),
            (engagementDaily, context.firstEngagement, settings, nil, context.runEngagement),
            (weeklyInsight, context.firstWeeklyInsight, settings, nil, context.runWeeklyInsight),
        ]
        for (identifier, first, prepareStarts, prepare, handler) in chains {
            try registrar.register(
                identifier, for: .everyUser, cadence: cadence[identifier], startingWith: first,
                preparingChainStarts: prepareStarts, preparingBatches: prepare, using: handler)
        }
    }
}

/// When the pipeline's tasks run.
public struct PipelineTaskSchedule: Sendable, Hashable {
    /// Seconds between `health-refresh` runs.
    public var healthRefreshInterval: TimeInterval = 4 * 3600
    /// Days between `ml-retrain` runs (`retrainIntervalDays`).
    public var retrainIntervalDays = 1
    /// The hour of the user's night, on their own clock, from which their `ml-retrain` is due.
    ///
    /// The user's clock, not the server's: at 03:00 their day is over — the evening's entry is in
    /// and the watch has synced the night — and a retrain then learns from a complete yesterday
    /// whichever zone they live in. A cron line fires on the server's clock, so every user's
    /// retrain is due by the time a daily `pipeline retrain` fires, whatever hour that is: each
    /// request became due within the day before it.
    public var retrainHour = 3
    /// The day of the week `weekly-insight` runs, 0 = Monday … 6 = Sunday (as `Day.weekday`).
    public var weeklyInsightWeekday = 6

    public init() {}
}

/// One of the pipeline's tasks, described.
public struct PipelineTaskDefinition: Sendable, Hashable {
    public var identifier: TaskIdentifier
    public var kind: TaskKind
    /// In words: "every 4 h", "daily at the reminder hour".
    public var cadence: String
    public var requiresExternalPower = false
}

/// What the handlers work with.
struct TaskContext: Sendable {
    let pipeline: Pipeline
    let personalModel: (any PersonalModelService)?
    /// The time zones of the users of claimed `ml-retrain` runs, read with the batch (`prepareRetrains`).
    let preparedZones = Prepared<TimeZone>()
    /// The settings of a page of users whose chains start, read with the page (`prepareRefreshChainStarts`).
    let preparedSettings = Prepared<UserSettings>()

    var schedule: PipelineTaskSchedule { pipeline.schedule }
    var store: Store { pipeline.store }
    var clock: any Clock { pipeline.clock }
    var log: any LogSink { pipeline.log }

    /// The user's time zone and settings (registered defaults for what they never set).
    func profile(of user: UserID) async throws(StorageError) -> (timeZone: TimeZone, settings: UserSettings) {
        let timeZone = try await store.timeZone(of: user) ?? .utc
        return (timeZone, try await store.settings(for: user))
    }

    /// The user a per-user task runs for; `nil` after completing the task unsuccessfully when it
    /// has none (a global request of a per-user task).
    func user(of task: BackgroundTask) -> UserID? {
        guard let user = task.scope.user else {
            task.setTaskCompleted(success: false, reason: "\(task.identifier) runs for a user, not globally")
            return nil
        }
        return user
    }

    /// The task's user with their time zone and settings; `nil` after completing the task
    /// unsuccessfully when it has no user or they cannot be read.
    func userProfile(of task: BackgroundTask) async -> (user: UserID, timeZone: TimeZone, settings: UserSettings)? {
        guard let user = user(of: task) else { return nil }
        do {
            let (timeZone, settings) = try await profile(of: user)
            return (user, timeZone, settings)
        } catch {
            fail(task, error)
            return nil
        }
    }

    /// Submits a handler's successor as its first statement, stored with the run's record
    /// (`BackgroundTask.submitWithRun`): a run is never recorded without it, and a run that is not
    /// recorded leaves its own request to be claimed again. On a refusal (the pending-request limit)
    /// completes the task as unsuccessful (the request is then retried, so the chain goes on) and
    /// returns `false`.
    func submitSuccessor(_ request: some TaskRequest, of task: BackgroundTask) async -> Bool {
        do {
            try await task.submitWithRun(request)
            return true
        } catch .storage(let busy) where busy.isBusy {
            task.deferRun(because: busy)
            return false
        } catch {
            task.setTaskCompleted(success: false, reason: "could not submit its successor: \(error)")
            return false
        }
    }

    /// `submitSuccessor` for a refresh task: a request of the same task and scope, due at `next`.
    func submitSuccessor(dueAt next: Date, of task: BackgroundTask) async -> Bool {
        await submitSuccessor(
            AppRefreshTaskRequest(identifier: task.identifier, scope: task.scope, earliestBeginDate: next), of: task)
    }

    /// A refresh chain's first request: due at once for the global scope, at `due(settings, user)` for a user.
    func refreshChainStart(
        _ identifier: TaskIdentifier, due: @escaping @Sendable (UserSettings, User) -> Date
    ) -> ChainStart {
        { [self] scope, user in
            guard let user else { return AppRefreshTaskRequest(identifier: identifier, scope: scope) }
            // The chain start's page of users carries their zones: only the settings are read, with the page's.
            let settings: UserSettings
            if let prepared = preparedSettings.take(user.id) {
                settings = prepared
            } else {
                settings = try await store.settings(for: user.id)
            }
            return AppRefreshTaskRequest(identifier: identifier, scope: scope, earliestBeginDate: due(settings, user))
        }
    }

    /// The chain starts of `refreshChainStart`: each page's users' settings read in one query.
    var prepareRefreshChainStarts: BatchPreparation {
        { [self] scopes in
            let users = scopes.compactMap(\.user)
            preparedSettings.keep((try? await store.settings(for: users)) ?? [:], for: users)
        }
    }

    /// Ends the run after `error`. A busy database (a lock held past its timeout, too many connections, the
    /// server restarting: `StorageError.isBusy`) gives the run back, its attempt uncounted, and the launch
    /// ends for a later one to run it (`BackgroundTask.deferRun(because:)`); any other error completes the
    /// run unsuccessfully, to be retried with backoff.
    func fail(_ task: BackgroundTask, _ error: any Error) {
        let storage = (error as? StorageError) ?? (error as? PipelineError).flatMap(\.storageError)
        if let storage, storage.isBusy {
            task.deferRun(because: storage)
        } else {
            task.setTaskCompleted(success: false, reason: "\(error)")
        }
    }
}

// MARK: - Dates

enum TaskDates {
    /// The first instant `start + k × interval` (k ≥ 1) after `now`: a fixed rate that does not
    /// drift by the lateness of each launch.
    static func fixedRate(from start: Date, every interval: TimeInterval, after now: Date) -> Date {
        let elapsed = now.timeIntervalSince(start)
        let steps = max(1, (elapsed / interval).rounded(.down) + 1)
        return start.addingTimeInterval(steps * interval)
    }

    /// The next instant after `now` at local `hour` in `timeZone`, computed on the calendar (so it
    /// stays at the same local hour across daylight-saving changes).
    static func nextLocalTime(hour: Int, in timeZone: TimeZone, after now: Date) -> Date {
        let today = Day(containing: now, in: timeZone)
        for offset in 0...2 {
            let candidate = today.adding(days: offset).localTime(hour: hour, in: timeZone)
            if candidate > now { return candidate }
        }
        return today.adding(days: 3).localTime(hour: hour, in: timeZone)
    }

    /// The next night's retrain after a run at `now`: `days` after the night the run belongs to
    /// (the latest local `hour` at or before `now`), at local `hour`. Computed from the calendar
    /// and the run's time alone, so a late launch, a retry's backoff or a forced run never moves
    /// the following night's slot.
    static func nextNight(hour: Int, everyDays days: Int, in timeZone: TimeZone, after now: Date) -> Date {
        let today = Day(containing: now, in: timeZone)
        let night = today.localTime(hour: hour, in: timeZone) <= now ? today : today.adding(days: -1)
        return night.adding(days: max(1, days)).localTime(hour: hour, in: timeZone)
    }

    /// The latest instant at or before `now` at local `hour` on `weekday` (0 = Monday): the weekly
    /// slot a run at `now` belongs to, however late it comes.
    static func latestWeekly(weekday: Int, hour: Int, in timeZone: TimeZone, atOrBefore now: Date) -> Date {
        let today = Day(containing: now, in: timeZone)
        for offset in 0...14 {
            let day = today.adding(days: -offset)
            guard day.weekday == weekday else { continue }
            let candidate = day.localTime(hour: hour, in: timeZone)
            if candidate <= now { return candidate }
        }
        preconditionFailure("every weekday occurs within two weeks")
    }

    /// The next instant after `now` at local `hour` on `weekday` (0 = Monday) in `timeZone`.
    static func nextWeekly(weekday: Int, hour: Int, in timeZone: TimeZone, after now: Date) -> Date {
        let today = Day(containing: now, in: timeZone)
        for offset in 0...14 {
            let day = today.adding(days: offset)
            guard day.weekday == weekday else { continue }
            let candidate = day.localTime(hour: hour, in: timeZone)
            if candidate > now { return candidate }
        }
        preconditionFailure("every weekday occurs within two weeks")
    }
}

/// What a page of chain starts or a batch of runs read for each of its users (`BatchPreparation`), each taken by
/// the user's own call. A user prepared again (a run given back unrun, then claimed by a later batch) has what an
/// earlier preparation read dropped first: what one page or batch read is never used by a later one.
final class Prepared<Value: Sendable>: Sendable {
    private let values = Locked<[UserID: Value]>([:])

    /// Keeps `read`, the values read for the page or batch of `users`, dropping any kept earlier for them.
    func keep(_ read: [UserID: Value], for users: [UserID]) {
        values.withLock { values in
            for user in users { values[user] = read[user] }
        }
    }

    func take(_ user: UserID) -> Value? {
        values.withLock { $0.removeValue(forKey: user) }
    }
}
