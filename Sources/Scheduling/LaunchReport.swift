import Domain
public import Foundation
public import Storage
import Synchronization

/// What one launch should run.
public struct LaunchPlan: Sendable, Hashable {
    /// Run due requests of these identifiers only; `nil` for every registered one. Chains of every
    /// registered identifier are started either way.
    public var identifiers: Set<TaskIdentifier>?
    /// Run requests of this scope only; `nil` for every scope.
    public var scope: TaskScope?
    /// Make the matching pending requests due now, ignoring their `earliestBeginDate` and backoff
    /// (not their conditions).
    public var force: Bool
    /// A budget for every run of this launch, instead of the configured one for its kind.
    public var budget: TimeInterval?
    /// Runs at once (workers in a task group). The store's actor serializes their database access.
    public var jobs: Int

    public init(
        identifiers: Set<TaskIdentifier>? = nil, scope: TaskScope? = nil, force: Bool = false,
        budget: TimeInterval? = nil, jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.identifiers = identifiers
        self.scope = scope
        self.force = force
        self.budget = budget
        self.jobs = jobs
    }
}

/// How far a launch has got: runs finished of the requests it found due (after starting chains, so a first
/// launch counts the chains it started). Requests that become due during the launch, or that a dead worker's
/// lease hands over, can take `finished` past `due`.
public struct LaunchProgress: Sendable, Hashable {
    public var finished: Int
    public var due: Int
}

/// What a launch did.
///
/// Its lists are bounded, so that a launch over 100,000 users does not hold 100,000 records: each keeps
/// at most `LaunchReport.listLimit` entries (for `runs`, the latest), and `outcomes` counts every run.
public struct LaunchReport: Sendable {
    /// Entries each list of a report keeps at most.
    public static let listLimit = 1000

    /// First requests submitted for scopes that had none (new users, or a database never launched).
    public var startedChains = 0
    /// The runs of this launch, in the order they finished: every one, or the latest `listLimit`
    /// (`runCount` counts them all).
    public var runs: [TaskRun] = []
    /// How many runs this launch recorded, by outcome.
    public var outcomes: [TaskOutcome: Int] = [:]
    /// Runs taken over from workers that died (their lease had expired).
    public var reclaimed = 0
    /// Due requests that match the plan but did not run because their conditions are unmet.
    public var waitingForConditions: [ScheduledRequest] = []
    /// Due requests that match the plan and another worker is running.
    public var runningElsewhere: [ScheduledRequest] = []
    /// Old history this launch deleted (`SchedulerConfiguration.historyRetention`).
    public var pruned = PrunedHistory()

    public init() {}

    /// Runs among `runs` that were their request's last attempt: the request left the schedule as
    /// discarded.
    public var discarded: [TaskRun] { runs.filter(\.wasDiscarded) }

    /// How many runs this launch recorded.
    public var runCount: Int { outcomes.values.reduce(0, +) }

    /// How many runs did not succeed.
    public var unsuccessfulRunCount: Int { runCount - outcomes[.success, default: 0] }

    /// Runs that did not succeed, among `runs`.
    public var unsuccessfulRuns: [TaskRun] { runs.filter { $0.outcome != .success } }
}

/// The latest `LaunchReport.listLimit` runs of a worker, and counts of them all.
struct RecentRuns: Sendable {
    private(set) var runs: [TaskRun] = []
    private(set) var outcomes: [TaskOutcome: Int] = [:]

    mutating func append(_ run: TaskRun) {
        if let outcome = run.outcome { outcomes[outcome, default: 0] += 1 }
        runs.append(run)
        // Trimmed in steps, so a long launch does not shift the array at every run.
        if runs.count >= LaunchReport.listLimit + LaunchReport.listLimit / 4 {
            runs.removeFirst(runs.count - LaunchReport.listLimit)
        }
    }

    mutating func merge(_ other: RecentRuns) {
        outcomes.merge(other.outcomes, uniquingKeysWith: +)
        runs += other.runs
    }

    /// The runs in the order they finished, the latest `listLimit`.
    var latest: [TaskRun] {
        Array(
            runs.sorted {
                ($0.finishedAt ?? $0.startedAt, $0.startedAt) < ($1.finishedAt ?? $1.startedAt, $1.startedAt)
            }.suffix(LaunchReport.listLimit))
    }
}
