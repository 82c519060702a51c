public import Domain
public import Foundation
public import Scheduling
public import Storage

/// Where a request is in its life, as `pipeline requests` shows it.
public enum TaskRequestState: String, Sendable, Hashable, CaseIterable {
    /// Waiting for its `earliestBeginDate`.
    case pending
    /// Pending and due now: the next launch runs it (if its conditions are met).
    case due
    /// A worker holds its lease.
    case running
    /// Its worker's lease expired (the worker died); the next launch takes it over.
    case abandoned
    /// Its last allowed attempt failed; it waits for `pipeline requests retry`.
    case discarded
    /// An operator cancelled it; its chain stays stopped until it is retried.
    case cancelled
}

/// One request as an operator sees it: what it is, where it stands, and why it last failed.
public struct OperatorTaskRequest: Sendable, Hashable {
    /// The request's id (`pipeline requests cancel ID`, `pipeline requests retry ID`).
    public var id: Int64
    /// As stored: possibly a task this version does not register.
    public var identifier: String
    /// The user, or `nil` for a global request.
    public var user: String?
    public var state: TaskRequestState
    public var kind: TaskRequestKind
    public var earliestBeginDate: Date?
    public var attempts: Int
    public var lastError: String?
    public var leaseOwner: String?
    public var leaseExpiresAt: Date?
    /// When it was discarded or cancelled.
    public var discardedAt: Date?
}

extension Pipeline {
    /// Requests in the schedule and out of it, for one task and one user or all, in the given
    /// states or all: first those in the schedule in the order they may begin, then the discarded
    /// and cancelled ones, oldest first.
    public func operatorTaskRequests(
        task: TaskIdentifier? = nil, user: UserID? = nil, states: Set<TaskRequestState>? = nil
    ) async throws(PipelineError) -> [OperatorTaskRequest] {
        let now = clock.now
        let (scheduled, discarded) = try await storage { (store) throws(StorageError) in
            (
                try await store.taskRequests(identifier: task?.rawValue, scope: user?.rawValue),
                try await store.discardedTaskRequests(identifier: task?.rawValue, scope: user?.rawValue)
            )
        }
        var requests: [OperatorTaskRequest] = scheduled.map { record in
            let state: TaskRequestState =
                if let expiry = record.leaseExpiresAt, record.leaseOwner != nil {
                    expiry > now ? .running : .abandoned
                } else if (record.earliestBeginAt ?? record.submittedAt) <= now {
                    .due
                } else {
                    .pending
                }
            return OperatorTaskRequest(record, state: state, discardedAt: nil)
        }
        requests += discarded.map { entry in
            OperatorTaskRequest(
                entry.request, state: entry.cause == .cancelled ? .cancelled : .discarded,
                discardedAt: entry.discardedAt)
        }
        guard let states else { return requests }
        return requests.filter { states.contains($0.state) }
    }

    /// Cancels pending requests: those with `ids`, or else every one of `task` and `user` (at
    /// least one of the three is given). A cancelled chain stays stopped until
    /// `retryTaskRequests` puts it back; a running request is left to finish and reported.
    public func cancelTaskRequests(ids: [Int64]?, task: TaskIdentifier?, user: UserID?)
        async throws(PipelineError) -> TaskRequestCancellation
    {
        precondition(ids != nil || task != nil || user != nil, "cancel names requests, a task or a user")
        return try await storage { (store) throws(StorageError) in
            try await store.cancelTaskRequests(ids: ids, identifier: task?.rawValue, scope: user?.rawValue)
        }
    }

    /// Puts discarded requests back into the schedule, due now with their attempts reset: those
    /// with `ids` (discarded or cancelled), or else every request of `task` and `user` discarded
    /// after its last attempt. Returns the ids put back.
    public func retryTaskRequests(ids: [Int64]?, task: TaskIdentifier?, user: UserID?) async throws(PipelineError)
        -> [Int64]
    {
        try await storage { (store) throws(StorageError) in
            try await store.retryDiscardedTaskRequests(ids: ids, identifier: task?.rawValue, scope: user?.rawValue)
        }
    }

    /// Dead letters, oldest first; the requeued ones too with `includeResolved`.
    public func deadLetters(user: UserID? = nil, includeResolved: Bool = false) async throws(PipelineError)
        -> [DeadLetter]
    {
        try await storage { (store) throws(StorageError) in
            try await store.deadLetters(user: user, includeResolved: includeResolved)
        }
    }

    /// Queues dead letters again as new watch items: those with `ids`, or else every one of `user`
    /// (or every one). The next ingest or `health-refresh` applies them. Returns the new item's id
    /// by dead letter id.
    public func requeueDeadLetters(ids: [Int64]?, user: UserID?) async throws(PipelineError) -> [Int64: Int64] {
        try await storage { (store) throws(StorageError) in try await store.requeueDeadLetters(ids: ids, user: user) }
    }
}

extension OperatorTaskRequest {
    init(_ record: TaskRequestRecord, state: TaskRequestState, discardedAt: Date?) {
        self.init(
            id: record.id, identifier: record.identifier, user: record.scope.isEmpty ? nil : record.scope,
            state: state, kind: record.kind, earliestBeginDate: record.earliestBeginAt, attempts: record.attempts,
            lastError: record.lastError, leaseOwner: record.leaseOwner, leaseExpiresAt: record.leaseExpiresAt,
            discardedAt: discardedAt)
    }
}
