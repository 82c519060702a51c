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

extension TaskScheduler {
    /// The launch, in the only order there is (DESIGN §4): registers every handler through
    /// `register`, completes the launch (later registrations fail), starts the chain of every
    /// registered task for every scope it covers with `.keep`, then claims and runs due requests
    /// with `plan.jobs` workers until none is left, and returns.
    ///
    /// A launch that finds nothing due returns after a few queries. Runs that fail are recorded and
    /// retried later with exponential backoff; they do not make the launch throw. It throws for a
    /// registration mistake, a chain that cannot start, or a database failure (after letting the
    /// runs in progress finish).
    ///
    /// `progress`, when given, is called once the due requests are counted and after each run, from the
    /// workers' tasks (for a progress bar: it must return quickly).
    @discardableResult
    public func launch(
        _ plan: LaunchPlan = LaunchPlan(), progress: (@Sendable (LaunchProgress) -> Void)? = nil,
        registering register: (TaskRegistrar) throws(SchedulingError) -> Void
    ) async throws(SchedulingError) -> LaunchReport {
        let isFirst = registry.withLock { registry in
            defer { registry.isLaunching = true }
            return !registry.isLaunching
        }
        guard isFirst else { throw .alreadyLaunched }
        try register(TaskRegistrar(scheduler: self))
        launchCompleted()
        do {
            try await store.recordLaunch(worker: worker)
        } catch {
            throw .storage(error)
        }

        var report = LaunchReport()
        report.startedChains = try await startChains()

        let selected = registeredIdentifiers.filter { plan.identifiers?.contains($0) ?? true }
        guard !selected.isEmpty else {
            await checkpointLog(after: report)
            return report
        }
        let names = selected.map(\.rawValue)
        let cutoff: Int64
        let backlog: Backlog
        do {
            if plan.force {
                try await store.makeTaskRequestsDue(identifiers: names, scope: plan.scope?.storageKey)
            }
            cutoff = try await store.latestTaskRequestID()
            backlog = Backlog(
                workers: max(1, plan.jobs),
                requests: try await store.dueTaskRequestCount(
                    identifiers: names, scope: plan.scope?.storageKey, at: clock.now, upToRequestID: cutoff))
        } catch {
            throw .storage(error)
        }

        let stop = Stop()
        let due = backlog.counted
        let finishedRuns = Locked(0)
        progress?(LaunchProgress(finished: 0, due: due))
        var ran: (@Sendable () -> Void)?
        if let progress {
            ran = {
                let finished: Int = finishedRuns.withLock { count in
                    count += 1
                    return count
                }
                progress(LaunchProgress(finished: finished, due: due))
            }
        }
        let ranOne = ran
        let results = await withTaskGroup(of: WorkerResult.self) { group in
            for index in 1...max(1, plan.jobs) {
                group.addTask {
                    await self.work(
                        as: "\(self.worker)/\(index)", plan: plan, identifiers: names, upTo: cutoff, backlog: backlog,
                        stop: stop, ran: ranOne)
                }
            }
            var results: [WorkerResult] = []
            for await result in group { results.append(result) }
            return results
        }
        var runs = RecentRuns()
        for result in results {
            runs.merge(result.runs)
            report.reclaimed += result.reclaimed
        }
        report.runs = runs.latest
        report.outcomes = runs.outcomes
        if let failure = results.compactMap(\.error).first { throw failure }
        if let busy = stop.reason { throw .storage(busy) }
        // History grows only by runs, so a launch that ran nothing has nothing new to prune and stays quick.
        if report.runCount > 0 { report.pruned = try await pruneHistory() }

        let now = clock.now
        let conditions = conditions.currentConditions()
        let leftovers: [TaskRequestRecord]
        do {
            leftovers = try await store.heldOrWaitingTaskRequests(
                identifiers: names, scope: plan.scope?.storageKey, at: now, upToRequestID: cutoff,
                isOnExternalPower: conditions.isOnExternalPower,
                hasNetworkConnectivity: conditions.hasNetworkConnectivity, limit: 2 * LaunchReport.listLimit)
        } catch {
            throw .storage(error)
        }
        for request in leftovers.compactMap(ScheduledRequest.init) {
            if request.lease != nil {
                if report.runningElsewhere.count < LaunchReport.listLimit { report.runningElsewhere.append(request) }
            } else if report.waitingForConditions.count < LaunchReport.listLimit {
                report.waitingForConditions.append(request)
            }
        }
        await checkpointLog(after: report)
        return report
    }

    /// After a launch that wrote anything, moves what the database's own log holds into its file (SQLite:
    /// the write-ahead log checkpointed and truncated; nothing on PostgreSQL). A process that exits while a
    /// run's last task is still unwinding never closes its connection, which is when SQLite would do this
    /// itself: the file alone is then a whole copy of the database, and no log with frames is left beside
    /// it to be replayed onto another file put in its place. A failure loses nothing (the log still holds
    /// every commit) and is logged.
    private func checkpointLog(after report: LaunchReport) async {
        guard report.runCount > 0 || report.startedChains > 0 else { return }
        do {
            try await store.reclaimLogSpace()
        } catch {
            log.log(.warning, "could not move the database's log into its file at the end of the launch: \(error)")
        }
    }

    private func launchCompleted() {
        registry.withLock { $0.isLaunchCompleted = true }
    }

    /// Deletes a bounded amount of history older than `historyRetention`, and logs what it did.
    private func pruneHistory() async throws(SchedulingError) -> PrunedHistory {
        guard let retention = configuration.historyRetention else { return PrunedHistory() }
        do {
            let pruned = try await store.pruneHistory(
                before: clock.now.addingTimeInterval(-retention), limit: max(1, configuration.pruneLimit))
            if pruned.total > 0 {
                log.log(
                    .info,
                    "pruned history older than \(TaskExecution.format(retention)): \(pruned.runs) runs, "
                        + "\(pruned.outboxMessages) acknowledged messages, \(pruned.deadLetters) requeued dead letters, "
                        + "\(pruned.discardedRequests) discarded requests")
            }
            return pruned
        } catch {
            throw .storage(error)
        }
    }

    /// Submits, with `.keep`, the first request of every registered task for each scope it covers
    /// that has no request of it. Returns how many were stored. Users are taken a page at a time, so
    /// memory does not grow with their number.
    private func startChains() async throws(SchedulingError) -> Int {
        var started = 0
        for identifier in registeredIdentifiers {
            guard let registration = registration(for: identifier) else { continue }
            do {
                switch registration.scope {
                case .everyUser:
                    var after: UserID?
                    while true {
                        let page = try await store.usersWithoutTaskRequest(
                            identifier: identifier.rawValue, after: after, limit: Self.chainStartsPerTransaction)
                        guard let last = page.last else { break }
                        after = last.id
                        started += try await startChains(of: registration, for: page.map { (.user($0.id), $0) })
                    }
                case .global:
                    let existing = try await store.taskRequests(identifier: identifier.rawValue, scope: "")
                    let discarded = try await store.discardedTaskRequests(identifier: identifier.rawValue, scope: "")
                    if existing.isEmpty && discarded.isEmpty {
                        started += try await startChains(of: registration, for: [(.global, nil)])
                    }
                }
            } catch let error as StorageError {
                throw .storage(error)
            } catch let error as SchedulingError {
                throw error
            } catch {
                preconditionFailure("unexpected error: \(error)")
            }
        }
        if started > 0 { log.log(.info, "started \(started) task chain\(started == 1 ? "" : "s")") }
        return started
    }

    /// Users per page of `startChains`, each page's requests submitted in one transaction: launches
    /// starting the same chains at once wait on each other's uncommitted rows, each wait at most one
    /// short transaction long.
    static let chainStartsPerTransaction = 500

    /// Submits the first request of `registration`'s task for each of `scopes`, with `.keep`: in one
    /// transaction, or one at a time under a pending-request limit, so that each counts against the
    /// limit for the next (a refused one is logged and skipped). Returns how many were stored.
    private func startChains(of registration: Registration, for scopes: [(TaskScope, User?)])
        async throws(SchedulingError) -> Int
    {
        let identifier = registration.identifier
        var requests: [NewTaskRequest] = []
        var started = 0
        for (scope, user) in scopes {
            let request: any TaskRequest
            do {
                request = try await registration.chainStart(scope, user)
            } catch let error as StorageError {
                throw .storage(error)
            } catch {
                throw .chainStartFailed(identifier, scope: scope, reason: "\(error)")
            }
            precondition(
                request.identifier == identifier && request.scope == scope,
                "the first request of '\(identifier)' for \(scope) has identifier '\(request.identifier)' "
                    + "and scope \(request.scope)")
            guard configuration.pendingRequestLimit != nil else {
                requests.append(request.record)
                continue
            }
            do {
                try await checkPendingLimit(request)
            } catch let refusal where refusal.isTooManyPending {
                log.log(.warning, "\(identifier) [\(scope)]: chain not started: \(refusal)")
                continue
            }
            do {
                if try await store.submit(request.record, replacing: false) { started += 1 }
            } catch {
                throw .storage(error)
            }
        }
        do {
            return started + (try await store.submit(requests, replacing: false))
        } catch {
            throw .storage(error)
        }
    }

    private struct WorkerResult: Sendable {
        var runs = RecentRuns()
        var reclaimed = 0
        var error: SchedulingError?
    }

    /// Set once the database is found busy (a run given back, `BackgroundTask.deferRun(because:)`, or a
    /// claim or record that waited out a lock): every worker then claims nothing more, gives back the
    /// requests it holds unrun, and the launch ends with the reason once the runs in progress have
    /// finished. Each further run would wait out the same lock and fail; a later launch finds it free.
    final class Stop: Sendable {
        private let state = Locked<StorageError?>(nil)

        var reason: StorageError? { state.withLock { $0 } }

        var isStopped: Bool { reason != nil }

        func stop(_ reason: StorageError) {
            state.withLock { current in
                if current == nil { current = reason }
            }
        }
    }

    /// One worker: claims due requests a batch at a time, runs them one after another, and records
    /// the batch's runs, with the writes they stored with their records, in one transaction; until
    /// nothing is due.
    ///
    /// A run's budget counts from its claim, and its lease covers that budget and the grace, so a run
    /// later in a batch never outlives its lease. A claimed request whose wait in the batch has used
    /// half its budget, or that a cancelled launch did not reach, is given back unrun instead.
    private func work(
        as owner: String, plan: LaunchPlan, identifiers: [String], upTo cutoff: Int64, backlog: Backlog, stop: Stop,
        ran: (@Sendable () -> Void)?
    ) async -> WorkerResult {
        var result = WorkerResult()
        var pace = BatchPace(limit: configuration.claimBatchLimit, duration: configuration.claimBatchDuration)
        let grace = configuration.expiryGrace
        while !Task.isCancelled, !stop.isStopped {
            let conditions = conditions.currentConditions()
            let claim = TaskClaim(
                owner: owner, refreshLease: (plan.budget ?? configuration.refreshBudget) + grace,
                processingLease: (plan.budget ?? configuration.processingBudget) + grace,
                isOnExternalPower: conditions.isOnExternalPower,
                hasNetworkConnectivity: conditions.hasNetworkConnectivity, identifiers: identifiers,
                scope: plan.scope?.storageKey, limit: min(pace.batchSize, backlog.share), upToRequestID: cutoff)
            let claimed: [ClaimedTaskRequest]
            do {
                claimed = try await store.claimTaskRequests(claim)
            } catch {
                if error.isBusy { stop.stop(error) } else { result.error = .storage(error) }
                break
            }
            guard !claimed.isEmpty else { break }
            backlog.claimed(claimed.count)
            let claimInstant = ContinuousClock.now
            var finished: [FinishedRun] = []
            var released: [TaskClaimRelease] = []
            for item in claimed {
                let waited = claimInstant.duration(to: .now).timeInterval
                let release = TaskClaimRelease(runID: item.runID, requestID: item.request.id, owner: owner)
                if stop.isStopped
                    || (!finished.isEmpty && (Task.isCancelled || hasWaitedTooLong(item, waited: waited, plan: plan)))
                {
                    released.append(release)
                    continue
                }
                if let dead = item.abandonedBy {
                    result.reclaimed += 1
                    log.log(
                        .warning,
                        "\(Self.label(item.request)): worker \(dead) died during its run (lease expired); running it again"
                    )
                }
                let started = ContinuousClock.now
                let run = await execute(item, waited: finished.isEmpty ? 0 : waited, plan: plan)
                if let busy = run.deferral {
                    log.log(
                        .warning,
                        "\(run.label): the database is busy (\(busy)); given back unrun for a later launch, "
                            + "and nothing more is claimed")
                    released.append(release)
                    stop.stop(busy)
                    continue
                }
                finished.append(run)
                pace.record(started.duration(to: .now))
                ran?()
            }
            do {
                for run in try await record(finished, releasing: released, owner: owner) { result.runs.append(run) }
            } catch {
                if case .storage(let failure) = error, failure.isBusy {
                    stop.stop(failure)
                } else {
                    result.error = error
                }
                break
            }
        }
        return result
    }

    /// Whether a claimed request has waited in its batch for half its budget, in real seconds
    /// (`waited`) or by the scheduler's clock: it is then given back rather than run with what is left.
    private func hasWaitedTooLong(_ claimed: ClaimedTaskRequest, waited: TimeInterval, plan: LaunchPlan) -> Bool {
        let budget = plan.budget ?? configuration.budget(for: TaskKind(claimed.request.kind))
        let byClock = claimed.request.claimedAt.map { clock.now.timeIntervalSince($0) } ?? 0
        return max(waited, byClock) > budget / 2
    }

    /// How the log names a request: `ml-retrain [ada]`, `cleanup [global]`.
    static func label(_ request: TaskRequestRecord) -> String {
        "\(request.identifier) [\(request.scope.isEmpty ? "global" : request.scope)]"
    }

    /// The requests a launch's workers have still to claim, as counted at its start (`Store.dueTaskRequestCount`)
    /// less those claimed since. A claim takes at most a `2 × workers`th of them: as the last requests are
    /// claimed, claims shrink to one, and the workers finish within about a run of each other, instead of one
    /// waiting while another runs the rest of a whole batch (up to `claimBatchLimit` retrains, ~60 ms). Requests
    /// that become due during the launch, or that workers elsewhere claim, only make claims smaller or larger
    /// than they need be; nothing is claimed or run differently.
    final class Backlog: Sendable {
        let workers: Int
        private let unclaimed: Atomic<Int>

        /// The requests counted due at the launch's start.
        let counted: Int

        init(workers: Int, requests: Int) {
            self.workers = max(1, workers)
            counted = max(0, requests)
            unclaimed = Atomic(max(0, requests))
        }

        /// The most the next claim takes: at least one, and no bound once the count is used up (requests it did
        /// not count, such as a dead worker's expired leases, are then claimed as before).
        var share: Int {
            let left = unclaimed.load(ordering: .relaxed)
            return left > 0 ? max(1, left / (2 * workers)) : Int.max
        }

        func claimed(_ count: Int) {
            unclaimed.subtract(count, ordering: .relaxed)
        }
    }

    /// The size of a worker's next claim, from the mean duration of its runs so far: 1 to begin with,
    /// then about `duration` of work, at most `limit` requests.
    struct BatchPace {
        let limit: Int
        let duration: TimeInterval
        private var runs = 0
        private var total = Duration.zero

        init(limit: Int, duration: TimeInterval) {
            self.limit = max(1, limit)
            self.duration = duration
        }

        var batchSize: Int {
            guard runs > 0 else { return 1 }
            let mean = total / runs
            guard mean > .zero else { return limit }
            // Bounded as a Double first: a mean of a few nanoseconds would overflow `Int`.
            return max(1, Int(min(Double(limit), Duration.seconds(duration) / mean)))
        }

        mutating func record(_ duration: Duration) {
            runs += 1
            total += duration
        }
    }

    /// A run that ended and is waiting to be recorded with its batch.
    private struct FinishedRun {
        var claimed: ClaimedTaskRequest
        var request: ScheduledRequest?
        var startedAt: Date
        var outcome: TaskOutcome
        var reason: String?
        var retryAt: Date?
        var discard: Bool
        var periods: Int?
        var writes: [TaskRunWrite]
        /// Why the handler gave the run back (`BackgroundTask.deferRun(because:)`): it is then released
        /// unrun, not recorded.
        var deferral: StorageError?

        var label: String { TaskScheduler.label(claimed.request) }

        func completion(owner: String) -> TaskRunCompletion {
            TaskRunCompletion(
                runID: claimed.runID, requestID: claimed.request.id, owner: owner, outcome: outcome.stored,
                reason: reason, retryAt: retryAt, discard: discard, periods: periods, writes: writes)
        }
    }

    /// Runs one claimed request, `waited` real seconds after its claim, and says how it ended; nothing
    /// is written until `record`.
    private func execute(_ claimed: ClaimedTaskRequest, waited: TimeInterval, plan: LaunchPlan) async -> FinishedRun {
        let record = claimed.request
        let startedAt = record.claimedAt ?? clock.now
        let outcome: TaskOutcome
        let reason: String?
        var writes: [TaskRunWrite] = []
        var deferral: StorageError?
        let request = ScheduledRequest(record)
        let label = Self.label(record)
        if let request, let registration = registration(for: request.identifier) {
            let task = BackgroundTask(
                identifier: request.identifier, scope: request.scope, kind: request.kind, attempt: request.attempts,
                budget: plan.budget ?? configuration.budget(for: request.kind), startedAt: startedAt,
                earliestBeginDate: request.earliestBeginDate, scheduler: self, log: log)
            log.log(.info, "\(label): running (attempt \(request.attempts))")
            (outcome, reason) = await TaskExecution(
                task: task, handler: registration.handler, timer: timer, grace: configuration.expiryGrace, log: log,
                waited: waited
            ).run()
            writes = task.writesToStore
            deferral = task.deferral
        } else {
            // Claims only take registered identifiers, so only an unreadable row lands here.
            (outcome, reason) = (.failure, "the stored request could not be read")
        }
        let periods = request.flatMap { request in
            registration(for: request.identifier).flatMap { Self.periods(of: request, startedAt: startedAt, $0) }
        }
        var run = FinishedRun(
            claimed: claimed, request: request, startedAt: startedAt, outcome: outcome, reason: nil, retryAt: nil,
            discard: false, periods: periods, writes: writes, deferral: deferral)
        settle(&run, outcome: outcome, reason: reason)
        return run
    }

    /// Sets how a run ended, and from that whether it is retried (when) or discarded.
    private func settle(_ run: inout FinishedRun, outcome: TaskOutcome, reason: String?) {
        let attempts = run.claimed.request.attempts
        run.outcome = outcome
        run.discard = outcome != .success && configuration.isLastAttempt(attempts)
        run.reason = run.discard ? (reason.map { $0 + "; " } ?? "") + "discarded after \(attempts) attempts" : reason
        run.retryAt =
            outcome == .success || run.discard
            ? nil
            : clock.now.addingTimeInterval(
                configuration.retryDelay(
                    afterAttempt: attempts,
                    unit: SchedulerConfiguration.jitterUnit(request: run.claimed.request.id, attempt: attempts)))
    }

    /// Records a batch's runs and gives back its unrun claims, in one transaction, then logs each run
    /// and returns the ones recorded.
    ///
    /// When that transaction fails and a run carries writes, each run is recorded on its own, and one
    /// whose writes are refused (a constraint, a full disk) is recorded as failed without them, saying
    /// why, and retried.
    private func record(_ batch: [FinishedRun], releasing released: [TaskClaimRelease], owner: String)
        async throws(SchedulingError) -> [TaskRun]
    {
        var batch = batch
        var finishes: [TaskRunFinish] = []
        var failure: StorageError?
        do {
            finishes = try await store.finishTaskRuns(batch.map { $0.completion(owner: owner) }, releasing: released)
        } catch {
            guard batch.contains(where: { !$0.writes.isEmpty }) else {
                (finishes, failure) = try await recordAfterFullDisk(batch, releasing: released, owner: owner, error)
                return try reportAll(batch, finishes, owner: owner, thenThrow: failure)
            }
            for index in batch.indices {
                do {
                    finishes += try await store.finishTaskRuns([batch[index].completion(owner: owner)])
                    continue
                } catch {
                    batch[index].writes = []
                    settle(&batch[index], outcome: .failure, reason: "could not store what it produced: \(error)")
                }
                do {
                    finishes += try await store.finishTaskRuns([batch[index].completion(owner: owner)])
                } catch {
                    let (finish, refusal) = try await recordAfterFullDisk(
                        [batch[index]], releasing: [], owner: owner, error)
                    finishes += finish
                    failure = failure ?? refusal
                }
            }
            do {
                _ = try await store.finishTaskRuns([], releasing: released)
            } catch {
                throw .storage(error)
            }
        }
        return try reportAll(batch, finishes, owner: owner, thenThrow: failure)
    }

    /// After recording `batch` failed with `error`: on a full disk, gives back the space the
    /// database's log holds, which usually leaves room for the records, and records them again, so
    /// their leases are released now rather than held until they expire. Returns what was recorded
    /// and the error to stop the launch with (nothing more can be written). Throws anything else.
    private func recordAfterFullDisk(
        _ batch: [FinishedRun], releasing released: [TaskClaimRelease], owner: String, _ error: StorageError
    ) async throws(SchedulingError) -> ([TaskRunFinish], StorageError) {
        guard error.isIOFailure else { throw .storage(error) }
        log.log(
            .error,
            "could not record \(batch.count) run\(batch.count == 1 ? "" : "s") (\(error)); freeing the "
                + "database's log and trying again")
        do {
            try await store.reclaimLogSpace()
            return (
                try await store.finishTaskRuns(batch.map { $0.completion(owner: owner) }, releasing: released), error
            )
        } catch {
            throw .storage(error)
        }
    }

    private func reportAll(
        _ batch: [FinishedRun], _ finishes: [TaskRunFinish], owner: String, thenThrow failure: StorageError?
    ) throws(SchedulingError) -> [TaskRun] {
        let runs = zip(batch, finishes).compactMap { report($0, $1, owner: owner) }
        if let failure { throw .storage(failure) }
        return runs
    }

    /// Logs how a recorded run ended; returns it for the launch's report (`nil` when it was not
    /// recorded, or its request could not be read).
    private func report(_ run: FinishedRun, _ finish: TaskRunFinish, owner: String) -> TaskRun? {
        let label = run.label
        let outcome = run.outcome
        let reason = run.reason
        switch finish {
        case .leaseLost:
            log.log(
                .warning,
                "\(label): finished (\(outcome)) after its lease expired and another worker took it over; "
                    + "this run was not recorded")
            return nil
        case .recorded(let successorPending):
            if outcome == .success {
                log.log(.info, "\(label): succeeded" + (reason.map { " (\($0))" } ?? ""))
                if !successorPending {
                    log.log(
                        .warning,
                        "\(label): finished without submitting its successor; the chain is broken until the "
                            + "next launch starts it again")
                }
            } else if let retryAt = run.retryAt {
                log.log(
                    .warning,
                    "\(label): \(outcome)" + (reason.map { ": \($0)" } ?? "")
                        + "; retrying not before \(ISO8601Instant.string(from: retryAt))")
            } else if run.discard {
                log.log(
                    .error,
                    "\(label): \(outcome)" + (reason.map { ": \($0)" } ?? "")
                        + "; see 'pipeline requests --state discarded', then 'pipeline requests retry'")
            }
        }
        guard let request = run.request else { return nil }
        var recorded = TaskRun(
            identifier: request.identifier, scope: request.scope, kind: request.kind, attempt: request.attempts,
            worker: owner, startedAt: run.startedAt)
        recorded.finishedAt = clock.now
        recorded.outcome = outcome
        recorded.reason = reason
        recorded.periods = run.periods ?? 1
        recorded.wasDiscarded = run.discard
        return recorded
    }

    /// How many of its task's periods a run covers: 1, plus one for each whole cadence the request
    /// waited past its `earliestBeginDate` (launches that never came). `nil` when the task was
    /// registered without a cadence.
    static func periods(of request: ScheduledRequest, startedAt: Date, _ registration: Registration) -> Int? {
        guard let cadence = registration.cadence, cadence > 0 else { return nil }
        guard let due = request.earliestBeginDate, startedAt > due else { return 1 }
        return 1 + Int(min(startedAt.timeIntervalSince(due) / cadence, 1_000_000).rounded(.down))
    }
}
