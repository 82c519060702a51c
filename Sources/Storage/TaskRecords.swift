public import Foundation

// The scheduler's rows as Storage hands them out and takes them in (`Store+Scheduler.swift`): requests, claims,
// runs and their completions, and counts. `Scheduling` gives them meaning.

/// The two kinds of request, as stored.
public enum TaskRequestKind: String, Sendable, Hashable, CaseIterable {
    case refresh
    case processing
}

/// How a run ended, as stored.
public enum TaskRunOutcome: String, Sendable, Hashable, CaseIterable {
    case success
    case failure
    case expired
}

/// A request to store.
public struct NewTaskRequest: Sendable, Hashable {
    public var identifier: String
    public var scope: String
    public var kind: TaskRequestKind
    public var earliestBeginAt: Date?
    public var requiresExternalPower: Bool
    public var requiresNetwork: Bool

    public init(
        identifier: String, scope: String, kind: TaskRequestKind, earliestBeginAt: Date?,
        requiresExternalPower: Bool = false, requiresNetwork: Bool = false
    ) {
        self.identifier = identifier
        self.scope = scope
        self.kind = kind
        self.earliestBeginAt = earliestBeginAt
        self.requiresExternalPower = requiresExternalPower
        self.requiresNetwork = requiresNetwork
    }
}

/// A stored request, pending (no lease) or running.
public struct TaskRequestRecord: Sendable, Hashable {
    public var id: Int64
    public var identifier: String
    public var scope: String
    public var kind: TaskRequestKind
    public var earliestBeginAt: Date?
    public var requiresExternalPower: Bool
    public var requiresNetwork: Bool
    public var submittedAt: Date
    /// Claims so far, including a retried request's earlier ones.
    public var attempts: Int
    public var leaseOwner: String?
    public var leaseExpiresAt: Date?
    public var claimedAt: Date?
    /// Why the latest attempt failed; read by `taskRequests` (a claim's record does not carry it).
    public var lastError: String? = nil
}

/// What a worker asks for when it claims requests.
public struct TaskClaim: Sendable, Hashable {
    /// The worker, unique across processes and machines.
    public var owner: String
    /// Lease lengths in seconds by kind: the budget plus a grace period.
    public var refreshLease: TimeInterval
    public var processingLease: TimeInterval
    public var isOnExternalPower: Bool
    public var hasNetworkConnectivity: Bool
    /// Only requests with these identifiers (the ones the worker has handlers for).
    public var identifiers: [String]
    /// Only this scope, or every scope when `nil`.
    public var scope: String?
    public var limit: Int
    /// Only requests with this id or a lower one: a launch takes no request submitted after it began
    /// running tasks, so a handler whose successor is due at once cannot keep the launch busy forever.
    public var upToRequestID: Int64?

    public init(
        owner: String, refreshLease: TimeInterval, processingLease: TimeInterval, isOnExternalPower: Bool,
        hasNetworkConnectivity: Bool, identifiers: [String], scope: String?, limit: Int, upToRequestID: Int64? = nil
    ) {
        self.owner = owner
        self.refreshLease = refreshLease
        self.processingLease = processingLease
        self.isOnExternalPower = isOnExternalPower
        self.hasNetworkConnectivity = hasNetworkConnectivity
        self.identifiers = identifiers
        self.scope = scope
        self.limit = limit
        self.upToRequestID = upToRequestID
    }
}

/// A request a worker now holds, with the run opened for it.
public struct ClaimedTaskRequest: Sendable, Hashable {
    /// The request after the claim: leased, its attempt counted.
    public var request: TaskRequestRecord
    public var runID: Int64
    /// The worker whose expired lease this claim took over, if the request was abandoned.
    public var abandonedBy: String?

    /// The lease this claim gave `owner`, the worker that made it.
    public func lease(owner: String) -> TaskLease {
        TaskLease(requestID: request.id, owner: owner, attempt: request.attempts)
    }
}

/// A worker's hold on a request: the request, the worker, and the attempt its claim counted. It lasts until another
/// worker's claim takes the request over (which counts the next attempt), not until `leaseExpiresAt`: expiry only
/// makes the request claimable. Every write of a run is fenced by it: the run's record and what it carries
/// (`Store.finishTaskRuns`), and a handler's own transactions (`Store.holdsLease`).
///
/// The attempt as well as the owner: an owner (`host:pid:tag/worker`) never claims back its own unrecorded runs
/// (it records a batch before claiming again once the batch's leases near their end), so it never holds two claims
/// of one request, but two processes in containers may share a host name and a pid and then differ only by their
/// 32-bit random tag. The attempt makes each claim's lease its own whatever the owners.
public struct TaskLease: Sendable, Hashable {
    public var requestID: Int64
    public var owner: String
    /// The request's `attempts` as the claim left them.
    public var attempt: Int
}

/// How a worker's run ended.
public struct TaskRunCompletion: Sendable, Hashable {
    public var runID: Int64
    /// The run's claim's lease, which its record is fenced by.
    public var lease: TaskLease
    public var outcome: TaskRunOutcome
    /// Why, in words; never a health value.
    public var reason: String?
    /// When to try again; `nil` for a successful run, whose request is deleted.
    public var retryAt: Date?
    /// The run was the request's last attempt: it moves to the discarded requests (cause
    /// `attempts`) instead of being retried, and a successor already pending keeps its own date.
    public var discard: Bool
    /// How many of the task's periods the run covered (more than 1 after missed launches).
    public var periods: Int?
    /// What the run produced, stored in the transaction that records it, before its request is
    /// settled (so a successor submitted here counts as pending).
    public var writes: [TaskRunWrite]

    /// How the run of `claim`, which `owner` holds, ended.
    public init(
        _ claim: ClaimedTaskRequest, owner: String, outcome: TaskRunOutcome, reason: String?, retryAt: Date?,
        discard: Bool = false, periods: Int? = nil, writes: [TaskRunWrite] = []
    ) {
        runID = claim.runID
        lease = claim.lease(owner: owner)
        self.outcome = outcome
        self.reason = reason
        self.retryAt = retryAt
        self.discard = discard
        self.periods = periods
        self.writes = writes
    }
}

/// A write that takes effect with the record of the run that made it, or not at all: only while the run's lease
/// holds.
public enum TaskRunWrite: Sendable, Hashable {
    /// `submit(_:replacing:)`, with `replacing` true: the run's successor.
    case submit(NewTaskRequest)
    /// `save(_:)`: a model artifact, promoted or not.
    case save(StoredModel)
    /// `post(_:)`: a message for the outbox, unless the user has one of its kind for its day.
    case post(NewOutboxMessage)
}

/// A claim given back unrun: the request is pending again with its attempt uncounted, and the run
/// opened for it is deleted. Only while `owner` still holds the lease; when a request of the same
/// task and scope became pending meanwhile, that one supersedes it and the claimed one is deleted.
public struct TaskClaimRelease: Sendable, Hashable {
    public var runID: Int64
    /// The claim's lease: the release changes nothing once another worker has taken the request over.
    public var lease: TaskLease

    /// Gives back `claim`, which `owner` holds.
    public init(_ claim: ClaimedTaskRequest, owner: String) {
        runID = claim.runID
        lease = claim.lease(owner: owner)
    }
}

/// What `finishTaskRun` did.
public enum TaskRunFinish: Sendable, Hashable {
    /// Recorded; whether a request of the same identifier and scope was pending at that moment.
    case recorded(successorPending: Bool)
    /// The worker no longer held the lease; nothing changed.
    case leaseLost
}

/// One row of the run history.
public struct TaskRunRecord: Sendable, Hashable {
    public var id: Int64
    public var requestID: Int64
    public var identifier: String
    public var scope: String
    public var kind: TaskRequestKind
    public var attempt: Int
    public var worker: String
    public var startedAt: Date
    public var leaseExpiresAt: Date
    /// `nil` while the run is in progress.
    public var finishedAt: Date?
    public var outcome: TaskRunOutcome?
    public var reason: String?
    public var successorPending: Bool?
    /// How many of the task's periods the run covered; `nil` for runs recorded before schema 7.
    public var periods: Int? = nil
}

/// Requests of one identifier by state.
public struct TaskRequestCounts: Sendable, Hashable {
    public var pending: Int
    /// Pending and due now.
    public var due: Int
    /// Leased by a worker whose lease has not expired.
    public var running: Int
    /// Leased by a worker whose lease expired: it died, and the next launch takes the request over.
    public var abandoned: Int

    public init(pending: Int = 0, due: Int = 0, running: Int = 0, abandoned: Int = 0) {
        self.pending = pending
        self.due = due
        self.running = running
        self.abandoned = abandoned
    }
}

/// Runs of one identifier with one outcome, over the whole history.
public struct TaskRunTotal: Sendable, Hashable {
    public var identifier: String
    public var outcome: TaskRunOutcome
    public var runs: Int
    /// Sum of the runs' durations, seconds.
    public var totalDuration: TimeInterval
    public var lastFinishedAt: Date
}
