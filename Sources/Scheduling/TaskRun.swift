public import Foundation
import Storage

/// How a run ended.
public enum TaskOutcome: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `setTaskCompleted(success: true)`.
    case success
    /// `setTaskCompleted(success: false)`, or the worker died (its lease expired).
    case failure
    /// The budget ran out before the task completed successfully.
    case expired

    public var description: String { rawValue }
}

/// One run of a task, from the run history.
public struct TaskRun: Sendable, Hashable {
    public var identifier: TaskIdentifier
    public var scope: TaskScope
    public var kind: TaskKind
    /// 1 for the first run of a request, higher for retries.
    public var attempt: Int
    /// The worker (`host:pid:tag`) that ran it.
    public var worker: String
    public var startedAt: Date
    /// `nil` while it runs.
    public var finishedAt: Date?
    /// `nil` while it runs.
    public var outcome: TaskOutcome?
    /// Why it ended as it did, in words; never a health value.
    public var reason: String?
    /// How many of the task's periods it covered: more than 1 when it caught up after launches
    /// that never came (`register(_:for:cadence:…)`); 1 for a task without a cadence.
    public var periods = 1
    /// Whether this was the request's last attempt and it failed: the request was discarded.
    public var wasDiscarded = false
}

extension TaskRun {
    init?(_ record: TaskRunRecord) {
        guard let identifier = TaskIdentifier(record.identifier), let scope = TaskScope(storageKey: record.scope)
        else { return nil }
        self.init(
            identifier: identifier, scope: scope, kind: TaskKind(record.kind), attempt: record.attempt,
            worker: record.worker, startedAt: record.startedAt, finishedAt: record.finishedAt,
            outcome: record.outcome.map(TaskOutcome.init), reason: record.reason, periods: record.periods ?? 1)
    }
}
