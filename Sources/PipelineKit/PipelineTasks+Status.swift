public import Domain
public import Foundation
public import Scheduling
public import Storage

/// Everything `pipeline status` shows: the tasks and their diagnostics (DESIGN §4), and what the
/// database holds.
public struct PipelineStatus: Sendable {
    public var definitions: [PipelineTaskDefinition]
    public var scheduler: SchedulerStatus
    public var summary: StoreSummary
    /// Queued watch items of kinds this version does not know, by kind: kept, never applied.
    public var unknownWatchKinds: [String: Int]

    /// Whether anything calls for a person's attention.
    public var hasProblems: Bool {
        scheduler.hasProblems || !unknownWatchKinds.isEmpty || summary.deadLetters > 0
    }
}

extension PipelineTasks {
    /// The time between two runs of each task: a run that starts later than that after its due
    /// date covers more than one period, and a request due for longer than that is overdue.
    public static func cadences(_ schedule: PipelineTaskSchedule = PipelineTaskSchedule())
        -> [TaskIdentifier: TimeInterval]
    {
        [
            healthRefresh: schedule.healthRefreshInterval,
            mlRetrain: TimeInterval(max(1, schedule.retrainIntervalDays)) * 86_400,
            engagementDaily: 86_400,
            weeklyInsight: 7 * 86_400,
        ]
    }
}

extension Pipeline {
    /// The status of the pipeline's tasks and database, read without running anything.
    public func status(_ options: LaunchOptions = LaunchOptions()) async throws(PipelineError) -> PipelineStatus {
        let scheduler = makeScheduler(options)
        let registered = PipelineTasks.identifiers.map { (identifier: $0, scope: ChainScope.everyUser) }
        let schedulerStatus: SchedulerStatus
        do {
            schedulerStatus = try await scheduler.status(
                of: registered, cadences: PipelineTasks.cadences(schedule))
        } catch {
            throw PipelineError(error)
        }
        let summary = try await self.summary()
        let known = Set(WatchKind.allCases.map(\.rawValue))
        return PipelineStatus(
            definitions: PipelineTasks.definitions(schedule), scheduler: schedulerStatus, summary: summary,
            unknownWatchKinds: summary.watchItemsByKind.filter { !known.contains($0.key) })
    }

    /// Finished runs, oldest first, for one user and one task or all; `limit` keeps the most recent.
    public func taskHistory(user: UserID? = nil, task: TaskIdentifier? = nil, limit: Int? = nil)
        async throws(PipelineError) -> [TaskRun]
    {
        do {
            return try await makeScheduler(LaunchOptions()).history(
                identifier: task, scope: user.map(TaskScope.user), limit: limit)
        } catch {
            throw PipelineError(error)
        }
    }

    /// Requests waiting or running, for one user and one task or all.
    public func pendingTasks(user: UserID? = nil, task: TaskIdentifier? = nil) async throws(PipelineError)
        -> [ScheduledRequest]
    {
        do {
            return try await makeScheduler(LaunchOptions()).pendingRequests(
                identifier: task, scope: user.map(TaskScope.user))
        } catch {
            throw PipelineError(error)
        }
    }
}
