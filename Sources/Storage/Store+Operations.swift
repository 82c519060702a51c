public import Domain
public import Foundation

/// What an operator and a monitor need from the schedule (issue 11): the requests with their
/// errors, discarded requests and how to put them back, cancelling, the launch heartbeat, overdue
/// requests, dead letters to requeue, and pruning old history. Each change is one transaction.
extension Store {
    // MARK: Launches

    /// Records that a launch began now, as `worker`. Only a later launch replaces the record, so
    /// launches that overlap leave the latest.
    public func recordLaunch(worker: String) throws(StorageError) {
        try driver.recordLaunch(worker: worker)
    }

    /// The latest launch recorded, or `nil` if none ever ran.
    public func lastLaunch() throws(StorageError) -> LaunchRecord? {
        try driver.lastLaunch()
    }

    // MARK: Requests

    /// Requests taken out of the schedule, oldest first; `nil` matches everything.
    public func discardedTaskRequests(identifier: String? = nil, scope: String? = nil) throws(StorageError)
        -> [DiscardedTaskRequest]
    {
        try driver.discardedTaskRequests(identifier: identifier, scope: scope)
    }

    /// Discarded requests by identifier and cause.
    public func discardedTaskRequestCounts() throws(StorageError) -> [String: DiscardedTaskRequestCounts] {
        try driver.discardedTaskRequestCounts()
    }

    /// Takes the pending requests that match out of the schedule as cancelled (`nil` matches every
    /// identifier or scope; `ids` only those requests). A cancelled chain stays stopped — a launch
    /// does not start it again — until `retryDiscardedTaskRequests` puts it back. A running request
    /// is left to finish its run; it is counted, not cancelled.
    public func cancelTaskRequests(ids: [Int64]?, identifier: String?, scope: String?) throws(StorageError)
        -> TaskRequestCancellation
    {
        try driver.cancelTaskRequests(ids: ids, identifier: identifier, scope: scope)
    }

    /// Puts discarded requests back into the schedule, due now with no attempts counted: those with
    /// the given request ids (either cause), or else every request discarded after its last
    /// attempt that matches `identifier` and `scope`. Where the chain has a pending request already,
    /// that request is made due now instead of adding a second. Returns the request ids put back.
    public func retryDiscardedTaskRequests(ids: [Int64]?, identifier: String?, scope: String?) throws(StorageError)
        -> [Int64]
    {
        try driver.retryDiscardedTaskRequests(ids: ids, identifier: identifier, scope: scope)
    }

    /// Pending requests of `identifier` that have been due since `dueBefore` or earlier.
    public func overdueTaskRequests(identifier: String, dueBefore: Date) throws(StorageError) -> OverdueTaskRequests {
        try driver.overdueTaskRequests(identifier: identifier, dueBefore: dueBefore)
    }

    // MARK: Dead letters

    /// Dead letters, oldest first, with the ones already requeued when `includeResolved`.
    public func deadLetters(user: UserID?, includeResolved: Bool) throws(StorageError) -> [DeadLetter] {
        try driver.deadLetters(user: user, includeResolved: includeResolved)
    }

    /// Queues each dead letter that matches (by id, or every one of `user`, or every one) again as a
    /// new watch item with no attempts, and marks the dead letter resolved; in one transaction.
    /// Returns the new item's id by dead letter id; a dead letter already requeued is left alone.
    public func requeueDeadLetters(ids: [Int64]?, user: UserID?) throws(StorageError) -> [Int64: Int64] {
        try driver.requeueDeadLetters(ids: ids, user: user)
    }

    // MARK: Pruning

    /// Deletes history older than `before`, at most `limit` rows of each kind: finished runs (but
    /// never the latest of a task and scope, which status reads), acknowledged outbox messages,
    /// requeued dead letters and requests discarded after their last attempt. Cancelled requests
    /// stay: they keep their chain stopped. Runs in one transaction.
    public func pruneHistory(before: Date, limit: Int) throws(StorageError) -> PrunedHistory {
        precondition(limit > 0, "pruning removes at least one row of each kind")
        return try driver.pruneHistory(before: before, limit: limit)
    }
}

/// The latest launch.
public struct LaunchRecord: Sendable, Hashable {
    public var launchedAt: Date
    public var worker: String
}

/// Why a request left the schedule.
public enum DiscardCause: String, Sendable, Hashable, CaseIterable {
    /// Its last allowed attempt failed.
    case attempts
    /// An operator cancelled it.
    case cancelled
}

/// A request taken out of the schedule.
public struct DiscardedTaskRequest: Sendable, Hashable {
    /// The request as it was, with its attempts and last error.
    public var request: TaskRequestRecord
    public var cause: DiscardCause
    public var discardedAt: Date
}

/// Discarded requests of one identifier.
public struct DiscardedTaskRequestCounts: Sendable, Hashable {
    public var attempts = 0
    public var cancelled = 0

    public init(attempts: Int = 0, cancelled: Int = 0) {
        self.attempts = attempts
        self.cancelled = cancelled
    }
}

/// What `cancelTaskRequests(ids:identifier:scope:)` did.
public struct TaskRequestCancellation: Sendable, Hashable {
    /// Request ids taken out of the schedule.
    public var cancelled: [Int64] = []
    /// Request ids that were running and were left to finish.
    public var running: [Int64] = []

    public init(cancelled: [Int64] = [], running: [Int64] = []) {
        self.cancelled = cancelled
        self.running = running
    }
}

/// Pending requests of one identifier due since a given instant.
public struct OverdueTaskRequests: Sendable, Hashable {
    public var count = 0
    /// When the one that has waited longest became due.
    public var oldestDueAt: Date?
    public var requiringExternalPower = 0
    public var requiringNetwork = 0

    public init(count: Int = 0, oldestDueAt: Date? = nil, requiringExternalPower: Int = 0, requiringNetwork: Int = 0) {
        self.count = count
        self.oldestDueAt = oldestDueAt
        self.requiringExternalPower = requiringExternalPower
        self.requiringNetwork = requiringNetwork
    }
}

/// Rows `pruneHistory` deleted, by kind.
public struct PrunedHistory: Sendable, Hashable {
    public var runs = 0
    public var outboxMessages = 0
    public var deadLetters = 0
    public var discardedRequests = 0

    public init(runs: Int = 0, outboxMessages: Int = 0, deadLetters: Int = 0, discardedRequests: Int = 0) {
        self.runs = runs
        self.outboxMessages = outboxMessages
        self.deadLetters = deadLetters
        self.discardedRequests = discardedRequests
    }

    public var total: Int { runs + outboxMessages + deadLetters + discardedRequests }
}
