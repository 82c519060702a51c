public import Foundation
import Storage

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
        public var lastSuccess: Date?
        /// Finished runs by outcome, over the whole history.
        public var runs: [TaskOutcome: Int]
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
    /// Leases that expired long ago (`stuckAfterBudgets` budgets) and that no launch took over: the
    /// worker died and no launch has run since.
    public var stuck: [ScheduledRequest]
    /// Requests whose identifier is not registered by this version: no launch will run them.
    public var unregistered: [TaskIdentifier: Int]

    /// Whether any diagnostic calls for attention.
    public var hasProblems: Bool {
        !neverSubmitted.isEmpty || !brokenChains.isEmpty || !stuck.isEmpty || !unregistered.isEmpty
    }
}

extension TaskScheduler {
    /// The status of the tasks `registered` (identifiers with the scopes their chains cover), read
    /// without launching anything.
    public func status(of registered: [(identifier: TaskIdentifier, scope: ChainScope)])
        async throws(SchedulingError) -> SchedulerStatus
    {
        do {
            let counts = try await store.taskRequestCounts()
            let totals = try await store.taskRunTotals()
            var tasks: [SchedulerStatus.TaskSummary] = []
            var neverSubmitted: [SchedulerStatus.Chain] = []
            for (identifier, scope) in registered {
                let count = counts[identifier.rawValue] ?? TaskRequestCounts()
                let mine = totals.filter { $0.identifier == identifier.rawValue }
                tasks.append(
                    SchedulerStatus.TaskSummary(
                        identifier: identifier, scope: scope, pending: count.pending, due: count.due,
                        running: count.running, lastSuccess: mine.first { $0.outcome == .success }?.lastFinishedAt,
                        runs: Dictionary(uniqueKeysWithValues: mine.map { (TaskOutcome($0.outcome), $0.runs) })))
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
            return SchedulerStatus(
                now: clock.now, conditions: conditions.currentConditions(), tasks: tasks,
                neverSubmitted: neverSubmitted, brokenChains: brokenChains, stuck: stuck, unregistered: unregistered)
        } catch {
            throw .storage(error)
        }
    }
}
