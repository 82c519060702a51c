import Domain
public import Foundation

/// Budgets, retry delays and thresholds. The defaults are iOS's budgets (about 30 s for a refresh
/// task, several minutes for a processing task).
public struct SchedulerConfiguration: Sendable, Hashable {
    /// Seconds an app refresh run may take.
    public var refreshBudget: TimeInterval = 30
    /// Seconds a processing run may take.
    public var processingBudget: TimeInterval = 600
    /// Seconds a run gets after its expiration handler to stop; the lease lasts budget + grace.
    public var expiryGrace: TimeInterval = 10
    /// Requests a worker claims at once at most. Its claims hold about `claimBatchDuration` of work,
    /// as its runs so far measure it, and the runs of a claim are recorded in one transaction: quick
    /// runs (a retrain takes milliseconds) share their transactions many to one, and a slow run is
    /// claimed alone. A run's budget counts from its claim.
    public var claimBatchLimit = 32
    /// Seconds of work a worker claims at once, up to `claimBatchLimit` requests (see there).
    public var claimBatchDuration: TimeInterval = 0.25
    /// The delay before the first retry of an unsuccessful run; each further failure doubles it.
    public var retryBaseDelay: TimeInterval = 60
    /// The longest delay between retries.
    public var retryMaximumDelay: TimeInterval = 86_400
    /// How far each retry delay is spread, as a fraction of it: a delay d becomes one drawn from
    /// [d − d·jitter/2, d + d·jitter/2), so requests that failed together (a database restart, an
    /// outage of everything) come back spread over that window instead of all in one launch.
    public var retryJitter: Double = 0.5
    /// Attempts a request gets before it is discarded: its last failure takes it out of the
    /// schedule (`pipeline requests` shows it as discarded, `status` flags it, `pipeline requests
    /// retry` puts it back).
    ///
    /// Why 12, not Oban's 20 or River's 25: those queues hold one-off jobs, where a discarded job is
    /// lost work, so they keep retrying for about three weeks. These tasks are periodic, and each
    /// run submits its successor first, so a failed period is superseded by the next one anyway.
    /// With delays doubling from one minute, 12 attempts span 1 + 2 + … + 1024 min ≈ 34 h: through
    /// a whole day's outage of what a daily task needs (the retrain, the reminders), and several
    /// periods of the 4-hourly refresh — beyond that, retrying the old period is noise.
    public var maxAttempts = 12
    /// Pending requests due longer ago than their task's cadence are overdue; a processing request
    /// whose conditions have been unmet this long is flagged as waiting too long (status, metrics).
    public var conditionsWaitLimit: TimeInterval = 86_400
    /// Run history, acknowledged outbox messages, requeued dead letters and requests discarded
    /// after their last attempt older than this are pruned by launches. `nil`: never pruned.
    public var historyRetention: TimeInterval? = 30 * 86_400
    /// At most this many rows of each kind are pruned one by one per launch, or twice the runs the launch recorded
    /// when that is more, so a launch after a long time (or the first after an upgrade) spends a bounded time on
    /// it, later launches take the rest, and pruning keeps up however many runs launches record: runs, and the
    /// messages, dead letters and discarded requests runs leave, can be taken out twice as fast as they come in.
    /// (On PostgreSQL whole days of runs are dropped besides, not counted against it: `Store.pruneHistory`.)
    public var pruneLimit = 1_000
    /// A lease that expired this many budgets ago without a launch reclaiming it is reported stuck. By
    /// default as soon as it expires: a lease covers its run's budget and grace, so only a worker that died
    /// (or hangs) leaves one to expire, and its request waits for the next launch that runs its task (for
    /// `ml-retrain`, the next `pipeline retrain`, perhaps a day later).
    public var stuckAfterBudgets: Double = 0
    /// How many requests of each kind may be pending at once, over all tasks and scopes; `nil` for
    /// no limit beyond one per task and scope (a server). A phone uses `.iOS`.
    public var pendingRequestLimit: PendingRequestLimit?

    public init() {}

    public func budget(for kind: TaskKind) -> TimeInterval {
        switch kind {
        case .appRefresh: refreshBudget
        case .processing: processingBudget
        }
    }

    /// Exponential backoff: `retryBaseDelay × 2^(attempt − 1)`, at most `retryMaximumDelay`.
    public func retryDelay(afterAttempt attempt: Int) -> TimeInterval {
        let exponent = Double(max(0, min(attempt - 1, 62)))
        return min(retryBaseDelay * pow(2, exponent), retryMaximumDelay)
    }

    /// The backoff spread by `retryJitter`: `unit` in [0, 1) picks the point in the window (0 its
    /// start, 0.5 the plain backoff). The result never exceeds `retryMaximumDelay` by more than the
    /// spread allows, and is never negative.
    public func retryDelay(afterAttempt attempt: Int, unit: Double) -> TimeInterval {
        let delay = retryDelay(afterAttempt: attempt)
        let spread = max(0, min(retryJitter, 2))
        return max(0, delay * (1 - spread / 2 + spread * min(max(unit, 0), 1)))
    }

    /// Whether a run that failed on attempt `attempt` was the request's last.
    public func isLastAttempt(_ attempt: Int) -> Bool {
        attempt >= max(1, maxAttempts)
    }

    /// A point in [0, 1) for the jitter of one request's retry: a hash of the request and the attempt,
    /// so each request of a fleet gets its own spot in the window, and a replay gets the same one.
    static func jitterUnit(request id: Int64, attempt: Int) -> Double {
        var hash = FNV1a()
        hash.add(UInt64(bitPattern: id))
        hash.add(UInt64(bitPattern: Int64(attempt)))
        // The finalizer of SplitMix64 mixes the low bits FNV-1a leaves weak into the top ones.
        var z = hash.value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}

/// A cap on pending requests of each kind, as `BGTaskScheduler.submit` enforces on a phone.
public struct PendingRequestLimit: Sendable, Hashable {
    public var appRefresh: Int
    public var processing: Int

    /// iOS: "There can be a total of 1 refresh task and 10 processing tasks scheduled at any time"
    /// (`BGTaskScheduler.submit(_:)`); more is `tooManyPendingTaskRequests`.
    public static let iOS = PendingRequestLimit(appRefresh: 1, processing: 10)

    public func limit(for kind: TaskKind) -> Int {
        switch kind {
        case .appRefresh: appRefresh
        case .processing: processing
        }
    }
}
