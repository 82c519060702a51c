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
    /// The delay before the first retry of an unsuccessful run; each further failure doubles it.
    public var retryBaseDelay: TimeInterval = 60
    /// The longest delay between retries.
    public var retryMaximumDelay: TimeInterval = 86_400
    /// A lease that expired this many budgets ago without a launch reclaiming it is reported stuck.
    public var stuckAfterBudgets: Double = 4
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
}

/// A cap on pending requests of each kind, as `BGTaskScheduler.submit` enforces on a phone.
public struct PendingRequestLimit: Sendable, Hashable {
    public var appRefresh: Int
    public var processing: Int

    public init(appRefresh: Int, processing: Int) {
        self.appRefresh = appRefresh
        self.processing = processing
    }

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
