public import Domain
public import Foundation
public import Scheduling
import Storage

/// How to launch the pipeline's scheduler: what cron runs (`pipeline run`, `pipeline retrain`).
public struct LaunchOptions: Sendable {
    /// Run due requests of these tasks only (`retrain`: `ml-retrain`); `nil` for all four.
    public var tasks: Set<TaskIdentifier>?
    /// Run requests of this user only.
    public var user: UserID?
    /// Run the matching requests now even if they are not due yet (their conditions still apply).
    public var force = false
    /// A budget for every run of this launch, instead of 30 s (refresh) and 10 min (processing).
    public var budget: TimeInterval?
    /// Runs at once; by default one per core.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// The personal model for `ml-retrain` and `weekly-insight`; `nil`, the default, is the pipeline's own
    /// (`PersonalModels`, with `jobs` workers), as `pipeline retrain` runs it. Set it to train or phrase
    /// insights another way.
    public var personalModel: (any PersonalModelService)?
    /// Where processing conditions come from: the machine by default.
    public var conditions: any ConditionsProvider = MachineConditions()
    /// Where budgets expire: real time by default.
    public var timer: any ExpiryTimer = WallClockExpiryTimer()
    public var configuration = SchedulerConfiguration()
    /// Called as the launch counts its due requests and after each run (from the workers: return quickly).
    public var progress: (@Sendable (LaunchProgress) -> Void)?

    public init() {}
}

extension Pipeline {
    /// One launch (DESIGN §4), the only way the pipeline's tasks run: registers the four handlers,
    /// completes the launch, starts every user's chains with `.keep`, then claims and runs every due
    /// request that `options` selects, and returns what ran. Nothing due: it returns after a few
    /// queries, with an empty report.
    ///
    /// Runs that fail are recorded in the history and retried later; they do not make the launch
    /// throw. Database failures do.
    @discardableResult
    public func launch(_ options: LaunchOptions = LaunchOptions()) async throws(PipelineError) -> LaunchReport {
        let scheduler = makeScheduler(options)
        let personalModel = options.personalModel ?? PersonalModels(pipeline: self, jobs: max(1, options.jobs))
        let context = TaskContext(pipeline: self, personalModel: personalModel)
        var plan = LaunchPlan(
            identifiers: options.tasks, scope: options.user.map(TaskScope.user), force: options.force,
            budget: options.budget, jobs: options.jobs)
        plan.jobs = max(1, options.jobs)
        let retrains = options.tasks?.contains(PipelineTasks.mlRetrain) ?? true
        if retrains { personalModel.prepareForRetrains() }
        defer { if retrains { personalModel.stopPreparing() } }
        do {
            return try await scheduler.launch(plan, progress: options.progress) { registrar throws(SchedulingError) in
                try PipelineTasks.register(on: registrar, context: context)
            }
        } catch {
            throw PipelineError(error)
        }
    }

    func makeScheduler(_ options: LaunchOptions) -> TaskScheduler {
        TaskScheduler(
            store: store, permittedIdentifiers: PipelineTasks.identifiers, configuration: options.configuration,
            clock: clock, conditions: options.conditions, timer: options.timer, log: log)
    }
}

extension PipelineError {
    /// The pipeline registers a fixed set of permitted tasks once per launch, so only a storage
    /// failure can reach a caller; anything else is a mistake in this module.
    init(_ error: SchedulingError) {
        switch error {
        case .storage(let failure):
            self = .storage(failure)
        // The launch and the handlers handle a pending-request limit themselves; the pipeline sets
        // none outside the device simulation.
        case .notPermitted, .alreadyRegistered, .registeredAfterLaunch, .alreadyLaunched, .chainStartFailed,
            .tooManyPendingTaskRequests:
            preconditionFailure("the pipeline's task registration is broken: \(error)")
        }
    }
}
