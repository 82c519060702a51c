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
