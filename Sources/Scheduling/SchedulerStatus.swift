import Domain
public import Foundation
public import Storage

/// The scheduler's state for `pipeline status`: what is registered, pending and running, and the
/// diagnostics of DESIGN §4.
public struct SchedulerStatus: Sendable {
    /// One registered identifier.
    public struct TaskSummary: Sendable {
        public var identifier: TaskIdentifier
        public var scope: ChainScope
        public var pending: Int
        /// Pending and due now.
        public var due: Int
        public var running: Int
        /// Leased by a worker whose lease expired (it died): claimable again, by the next launch that runs
        /// the task (reported `stuck` too).
        public var abandoned = 0
        public var lastSuccess: Date?
        /// Finished runs by outcome, over the whole history.
        public var runs: [TaskOutcome: Int]
        /// Requests discarded after their last attempt, and cancelled by an operator.
        public var discarded = DiscardedTaskRequestCounts()
    }

    /// Pending requests of one task that have been due for longer than its cadence: no launch ran
    /// them (a dead cron), or none could (their conditions).
    public struct Overdue: Sendable, Hashable {
        public var identifier: TaskIdentifier
        public var cadence: TimeInterval
        public var requests: Int
        /// When the one that has waited longest became due.
        public var oldestDueAt: Date
    }

    /// Processing requests of one task due for more than `conditionsWaitLimit` whose conditions
    /// are unmet now: they wait on the machine, not on cron.
    public struct WaitingOnConditions: Sendable, Hashable {
        public var identifier: TaskIdentifier
        public var requests: Int
        public var oldestDueAt: Date
        /// What is missing now: "external power", "network".
        public var unmet: [String]
    }

    /// An identifier and a scope.
    public struct Chain: Sendable, Hashable {
        public var identifier: TaskIdentifier
        public var scope: TaskScope
    }

    public var now: Date
    public var conditions: DeviceConditions
    public var tasks: [TaskSummary]
    /// Registered, but the scope never had a request or a run: the chain never started (DESIGN §8,
    /// bug 1). A launch starts it.
    public var neverSubmitted: [Chain]
    /// The latest run succeeded without leaving a successor pending: the handler did not reschedule
    /// itself (DESIGN §8, bug 10).
    public var brokenChains: [TaskRun]
    /// Leases that expired (`stuckAfterBudgets` budgets ago; by default at all) and that no launch took
    /// over: the worker died and no launch has run the task since.
    public var stuck: [ScheduledRequest]
    /// Requests whose identifier is not registered by this version: no launch will run them.
    public var unregistered: [TaskIdentifier: Int]
    /// The latest launch, or `nil` if none ever ran.
    public var lastLaunch: LaunchRecord? = nil
    /// Tasks with requests due for longer than their cadence (only tasks given a cadence).
    public var overdue: [Overdue] = []
    /// Tasks with processing requests waiting on unmet conditions for too long.
    public var waitingOnConditions: [WaitingOnConditions] = []

    /// Requests discarded after their last attempt, over every registered task.
    public var discardedRequests: Int { tasks.reduce(0) { $0 + $1.discarded.attempts } }

    /// Whether any diagnostic calls for attention. Requests an operator cancelled do not.
    public var hasProblems: Bool {
        !neverSubmitted.isEmpty || !brokenChains.isEmpty || !stuck.isEmpty || !unregistered.isEmpty
            || !overdue.isEmpty || !waitingOnConditions.isEmpty || discardedRequests > 0
    }
}

extension TaskScheduler {
    /// The status of the tasks `registered` (identifiers with the scopes their chains cover), read
    /// without launching anything. A task with a cadence in `cadences` is overdue when a request of
    /// it has been due for longer than that.
    public func status(
        of registered: [(identifier: TaskIdentifier, scope: ChainScope)], cadences: [TaskIdentifier: TimeInterval] = [:]
    ) async throws(SchedulingError) -> SchedulerStatus {
        do {
            let counts = try await store.taskRequestCounts()
            let discarded = try await store.discardedTaskRequestCounts()
            let totals = try await store.taskRunTotals()
            var tasks: [SchedulerStatus.TaskSummary] = []
            var neverSubmitted: [SchedulerStatus.Chain] = []
            for (identifier, scope) in registered {
                let count = counts[identifier.rawValue] ?? TaskRequestCounts()
                let mine = totals.filter { $0.identifier == identifier.rawValue }
                tasks.append(
                    SchedulerStatus.TaskSummary(
                        identifier: identifier, scope: scope, pending: count.pending, due: count.due,
                        running: count.running, abandoned: count.abandoned,
                        lastSuccess: mine.first { $0.outcome == .success }?.lastFinishedAt,
                        runs: Dictionary(
                            uniqueKeysWithValues: mine.filter { $0.runs > 0 }.map { (TaskOutcome($0.outcome), $0.runs) }
                        ),
                        discarded: discarded[identifier.rawValue] ?? DiscardedTaskRequestCounts()))
                let scopes = try await store.scopesNeverSubmitted(
                    identifier: identifier.rawValue, perUser: scope == .everyUser)
                neverSubmitted += scopes.compactMap(TaskScope.init(storageKey:)).map {
                    SchedulerStatus.Chain(identifier: identifier, scope: $0)
                }
            }
            let known = Set(registered.map(\.identifier.rawValue))
            let brokenChains = try await store.brokenTaskChains()
                .filter { known.contains($0.identifier) }.compactMap(TaskRun.init)
            let stuck = try await store.staleTaskLeases(
                refreshAge: configuration.stuckAfterBudgets * configuration.refreshBudget,
                processingAge: configuration.stuckAfterBudgets * configuration.processingBudget
            ).compactMap(ScheduledRequest.init)
            var unregistered: [TaskIdentifier: Int] = [:]
            for (name, count) in counts where !known.contains(name) {
                if let identifier = TaskIdentifier(name) {
                    unregistered[identifier] = count.pending + count.running + count.abandoned
                }
            }
            let now = clock.now
            let current = conditions.currentConditions()
            var unmet: [String] = []
            if !current.isOnExternalPower { unmet.append("external power") }
            if !current.hasNetworkConnectivity { unmet.append("network") }
            var overdue: [SchedulerStatus.Overdue] = []
            var waiting: [SchedulerStatus.WaitingOnConditions] = []
            for (identifier, _) in registered {
                if let cadence = cadences[identifier], cadence > 0 {
                    let late = try await store.overdueTaskRequests(
                        identifier: identifier.rawValue, dueBefore: now.addingTimeInterval(-cadence))
                    if late.count > 0, let oldest = late.oldestDueAt {
                        overdue.append(
                            SchedulerStatus.Overdue(
                                identifier: identifier, cadence: cadence, requests: late.count, oldestDueAt: oldest))
                    }
                }
                guard !unmet.isEmpty else { continue }
                let stalled = try await store.overdueTaskRequests(
                    identifier: identifier.rawValue,
                    dueBefore: now.addingTimeInterval(-configuration.conditionsWaitLimit))
                let blocked =
                    (current.isOnExternalPower ? 0 : stalled.requiringExternalPower)
                    + (current.hasNetworkConnectivity ? 0 : stalled.requiringNetwork)
                if blocked > 0, let oldest = stalled.oldestDueAt {
                    waiting.append(
                        SchedulerStatus.WaitingOnConditions(
                            identifier: identifier, requests: min(blocked, stalled.count), oldestDueAt: oldest,
                            unmet: unmet))
                }
            }
            var status = SchedulerStatus(
                now: now, conditions: current, tasks: tasks,
                neverSubmitted: neverSubmitted, brokenChains: brokenChains, stuck: stuck, unregistered: unregistered)
            status.lastLaunch = try await store.lastLaunch()
            status.overdue = overdue
            status.waitingOnConditions = waiting
            return status
        } catch {
            throw .storage(error)
        }
    }
}
