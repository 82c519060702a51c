public import Domain
import Foundation
import Scheduling
public import Storage

/// The personal model, as the `ml-retrain` and `weekly-insight` tasks use it. Implemented on top of
/// `Learning` (DESIGN §5) and passed to `Pipeline.launch` in `LaunchOptions.personalModel`.
///
/// Both methods run inside a background task with a budget: when it runs out, the Swift task is
/// cancelled; check `Task.isCancelled` between fits and return (or throw) promptly.
public protocol PersonalModelService: Sendable {
    /// Retrains the user's model on their data up to yesterday and promotes it only if it beats the
    /// baselines on the hold-out. Throws when training could not run; a model that was trained but
    /// not promoted is a normal outcome.
    func retrain(user: UserID) async throws(PipelineError) -> RetrainOutcome

    /// One short insight from the user's current model, e.g. their strongest personal association,
    /// or `nil` when there is nothing to say yet (no model, too little data). The text goes to the
    /// user; it is never logged.
    func insight(user: UserID) async throws(PipelineError) -> String?

    /// Called as a launch that may run `ml-retrain` starts, before it starts chains and claims requests: the
    /// service may begin, in the background, what every retrain will wait for (`PersonalModels` reads the
    /// population model, or pools it, while the launch's first queries run). Then `stopPreparing()` is called
    /// when the launch returns, whatever ran: work that no retrain took is dropped there.
    func prepareForRetrains()

    /// Called when a launch that called `prepareForRetrains()` returns: drops what no retrain took.
    func stopPreparing()

    /// Called with the users of a batch of `ml-retrain` runs a worker has just claimed, before the first runs: the
    /// service may read what their retrains will read in a few queries instead of a few per user (`PersonalModels`
    /// reads their days and served models). Returns the users it read, whose time zones date their runs'
    /// successors; those it does not return are read by their runs. Best effort: nothing read is no error.
    func prepareRetrains(of users: [UserID]) async -> [User]
}

extension PersonalModelService {
    public func prepareForRetrains() {}
    public func stopPreparing() {}
    public func prepareRetrains(of users: [UserID]) async -> [User] { [] }
}

/// A personal model service that can hand a retrain's model back instead of storing it: the
/// `ml-retrain` task then stores it with its run's record, in one transaction with many users' runs,
/// and only while the run's lease holds. `PersonalModels` is one; a service that is not has
/// `retrain(user:)` called, and stores its model itself, outside that fence: a worker paused past its
/// lease and then resumed may still store a model with such a service.
public protocol ModelTrainingService: PersonalModelService {
    /// Retrains as `retrain(user:)` does, but returns the new model instead of storing it.
    func train(user: UserID) async throws(PipelineError) -> TrainedModel
}

/// A retrain whose model is still to be stored.
public struct TrainedModel: Sendable, Hashable {
    public var outcome: RetrainOutcome
    /// The artifact to store, promoted or not; `nil` when there is none to store.
    public var model: StoredModel?
    /// The population model the service pooled for this and later retrains, to store before `model`; `nil` when
    /// it is stored already or left to another retrain.
    public var population: StoredModel?

    public init(outcome: RetrainOutcome, model: StoredModel?, population: StoredModel? = nil) {
        self.outcome = outcome
        self.model = model
        self.population = population
    }
}

/// What a retrain decided.
public struct RetrainOutcome: Sendable, Hashable {
    /// Whether the new model replaced the current one.
    public var promoted: Bool
    /// Why, in words recorded in the run history: metrics names and comparisons, never a health value.
    public var reason: String

    public init(promoted: Bool, reason: String) {
        self.promoted = promoted
        self.reason = reason
    }
}

extension TaskContext {
    static let noModelService =
        "no personal model service is configured in this build (LaunchOptions.personalModel)"

    /// The chain starts due at once, whenever the machine is on external power; from then on it runs
    /// in the user's night (`PipelineTaskSchedule.retrainHour`).
    var firstRetrain: ChainStart {
        { scope, _ in
            ProcessingTaskRequest(identifier: PipelineTasks.mlRetrain, scope: scope, requiresExternalPower: true)
        }
    }

    /// `ml-retrain`: a processing task that needs external power, every `retrainIntervalDays` at
    /// the user's `retrainHour`.
    var runRetrain: TaskHandler {
        { [self] task in
            guard let next = await nextRetrain(of: task) else { return }
            guard
                await submitSuccessor(
                    ProcessingTaskRequest(
                        identifier: PipelineTasks.mlRetrain, scope: task.scope, earliestBeginDate: next,
                        requiresExternalPower: true),
                    of: task)
            else { return }
            // Training stops at the next cancellation check; the current model stays until a new one
            // is promoted, atomically, so an interrupted retrain changes nothing.
            task.expirationHandler = {}
            guard let user = user(of: task) else { return }
            guard let personalModel else {
                task.setTaskCompleted(success: false, reason: Self.noModelService)
                return
            }
            do {
                let outcome: RetrainOutcome
                if let trainer = personalModel as? any ModelTrainingService {
                    let trained = try await trainer.train(user: user)
                    for model in [trained.population, trained.model].compactMap(\.self) {
                        task.storeWithRun(.save(model))
                    }
                    outcome = trained.outcome
                } else {
                    outcome = try await personalModel.retrain(user: user)
                }
                task.setTaskCompleted(
                    success: true,
                    reason: outcome.promoted ? outcome.reason : outcome.reason + "; the current model keeps serving")
            } catch {
                fail(task, error)
            }
        }
    }

    /// `ml-retrain`'s batch preparation: the personal model service reads the batch's users, and their time
    /// zones are kept for `nextRetrain`.
    var prepareRetrains: BatchPreparation {
        { [self] scopes in
            guard let personalModel else { return }
            let claimed = scopes.compactMap(\.user)
            let users = await personalModel.prepareRetrains(of: claimed)
            preparedZones.keep(
                Dictionary(users.map { ($0.id, $0.timeZone) }, uniquingKeysWith: { first, _ in first }), for: claimed)
        }
    }

    /// When the run's successor is due: the night after the one this run belongs to, on the user's
    /// clock. `nil` after completing the task unsuccessfully when the user's zone cannot be read.
    private func nextRetrain(of task: BackgroundTask) async -> Date? {
        var timeZone = TimeZone.utc
        if let user = task.scope.user {
            do {
                if let prepared = preparedZones.take(user) {
                    timeZone = prepared
                } else {
                    timeZone = try await store.timeZone(of: user) ?? .utc
                }
            } catch {
                fail(task, error)
                return nil
            }
        }
        return TaskDates.nextNight(
            hour: schedule.retrainHour, everyDays: schedule.retrainIntervalDays, in: timeZone, after: task.startedAt)
    }

    /// The chain starts at the user's next weekly insight time.
    var firstWeeklyInsight: ChainStart {
        refreshChainStart(PipelineTasks.weeklyInsight) { [clock, schedule] settings, user in
            TaskDates.nextWeekly(
                weekday: schedule.weeklyInsightWeekday, hour: settings.reminderHour, in: user.timeZone,
                after: clock.now)
        }
    }

    /// `weekly-insight`: one insight a week from the user's model into the outbox, if the user has
    /// weekly insights on (the registered default). The message is stored with the run's record
    /// (`BackgroundTask.storeWithRun`): it lands only while the run's lease holds.
    var runWeeklyInsight: TaskHandler {
        { [self] task in
            guard let profile = await userProfile(of: task) else { return }
            let user = profile.user
            let now = clock.now
            let next = TaskDates.nextWeekly(
                weekday: schedule.weeklyInsightWeekday, hour: profile.settings.reminderHour, in: profile.timeZone,
                after: now)
            guard await submitSuccessor(dueAt: next, of: task) else { return }
            task.expirationHandler = {}
            guard profile.settings.weeklyInsight else {
                task.setTaskCompleted(success: true, reason: "weekly insights are off")
                return
            }
            // The week of the slot this run belongs to, not of the moment it runs: a Sunday insight
            // caught up on Monday is still last week's, and next Sunday's is its own.
            let slot = Day(
                containing: TaskDates.latestWeekly(
                    weekday: schedule.weeklyInsightWeekday, hour: profile.settings.reminderHour,
                    in: profile.timeZone, atOrBefore: now),
                in: profile.timeZone)
            let week = slot.weekStart
            do {
                if try await store.hasOutboxMessage(user: user, kind: OutboxKind.weeklyInsight, day: week) {
                    task.setTaskCompleted(success: true, reason: "this week's insight was already queued")
                    return
                }
                guard let personalModel else {
                    task.setTaskCompleted(success: false, reason: Self.noModelService)
                    return
                }
                guard let insight = try await personalModel.insight(user: user) else {
                    task.setTaskCompleted(success: true, reason: "no insight yet")
                    return
                }
                task.storeWithRun(
                    .post(NewOutboxMessage(user: user, kind: OutboxKind.weeklyInsight, day: week, body: insight)))
                task.setTaskCompleted(success: true, reason: "insight queued")
            } catch {
                fail(task, error)
            }
        }
    }
}
