import Domain
import Foundation
import Storage
import Synchronization

extension TaskScheduler {
    /// One worker: claims due requests a batch at a time, runs them one after another, and records
    /// the batch's runs, with the writes they stored with their records, in one transaction; until
    /// nothing is due.
    ///
    /// While a batch runs, the next one is claimed and prepared, and the one before is recorded, so that their
    /// statements take the database's time and not the worker's (on PostgreSQL a round trip and a few milliseconds
    /// of the server each). The next claim is made ahead only while runs are quick (`BatchPace.claimsAhead`), so a
    /// batch claimed ahead waits a fraction of a second. A batch in which some claim has used half its budget is
    /// recorded before anything more is claimed, as is the last one: a worker never claims back its own unrecorded
    /// runs, whose leases are then still far from their end. When a record fails, the batch running meanwhile
    /// stops as a stopped launch does, and neither it nor the batch claimed ahead is recorded: their claims wait
    /// for their leases to expire, as the failed batch's do.
    ///
    /// A run's budget counts from its claim, and its lease covers that budget and the grace, so a run
    /// later in a batch never outlives its lease. A claimed request whose wait (behind the runs before it, or the
    /// batch before it) has used half its budget, or that a cancelled launch did not reach, is given back unrun.
    func work(
        as owner: String, plan: LaunchPlan, identifiers: [String], upTo cutoff: Int64, backlog: Backlog, stop: Stop,
        ran: (@Sendable () -> Void)?
    ) async -> WorkerResult {
        var result = WorkerResult()
        var pace = BatchPace(limit: configuration.claimBatchLimit, duration: configuration.claimBatchDuration)
        let grace = configuration.expiryGrace
        let recordFailed = Locked(false)
        let mayClaim = { !Task.isCancelled && !stop.isStopped && !recordFailed.withLock { $0 } }
        let nextClaim = { (pace: BatchPace) in
            let conditions = self.conditions.currentConditions()
            return TaskClaim(
                owner: owner, refreshLease: (plan.budget ?? self.configuration.refreshBudget) + grace,
                processingLease: (plan.budget ?? self.configuration.processingBudget) + grace,
                isOnExternalPower: conditions.isOnExternalPower,
                hasNetworkConnectivity: conditions.hasNetworkConnectivity, identifiers: identifiers,
                scope: plan.scope?.storageKey, limit: min(pace.batchSize, backlog.share), upToRequestID: cutoff)
        }
        var unrecorded: RanBatch?
        var ahead: Task<ClaimedBatch, Never>?
        // Whether this worker gave requests back since its claim ahead was made, which then cannot have found them.
        var gaveBack = false
        while true {
            if let batch = unrecorded, !batch.mayWait {
                result.add(await record(batch, owner: owner, stop: stop, failed: recordFailed))
                gaveBack = gaveBack || !batch.released.isEmpty
                unrecorded = nil
            }
            var claimed = ClaimedBatch(ahead: false)
            if let ahead {
                claimed = await ahead.value
            } else if mayClaim() {
                claimed = await claim(nextClaim(pace), backlog: backlog, ahead: false)
            }
            ahead = nil
            if let error = claimed.error {
                if error.isBusy { stop.stop(error) } else { result.error = .storage(error) }
            }
            let recording = unrecorded.map { batch in
                Task { await self.record(batch, owner: owner, stop: stop, failed: recordFailed) }
            }
            gaveBack = gaveBack || !(unrecorded?.released.isEmpty ?? true)
            unrecorded = nil
            if claimed.requests.isEmpty {
                if let recording { result.add(await recording.value) }
                // Claimed ahead, before the requests given back since were: they are claimed again now.
                if claimed.ahead, claimed.error == nil, gaveBack, mayClaim() {
                    gaveBack = false
                    continue
                }
                break
            }
            if pace.claimsAhead && mayClaim() {
                let next = nextClaim(pace)
                gaveBack = false
                ahead = Task { await self.claim(next, backlog: backlog, ahead: true) }
            }
            var batch = RanBatch()
            for item in claimed.requests {
                // The first of a batch claimed at once always runs; one claimed ahead may have waited too long.
                let waited = claimed.claimedAt.duration(to: .now).timeInterval
                let hasWaited = claimed.ahead || !batch.finished.isEmpty
                let release = TaskClaimRelease(item, owner: owner)
                if stop.isStopped || recordFailed.withLock({ $0 })
                    || (hasWaited && (Task.isCancelled || hasWaitedTooLong(item, waited: waited, plan: plan)))
                {
                    batch.released.append(release)
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
                let run = await execute(item, owner: owner, waited: hasWaited ? waited : 0, plan: plan)
                if let busy = run.deferral {
                    log.log(
                        .warning,
                        "\(run.label): the database is busy (\(busy)); given back unrun for a later launch, "
                            + "and nothing more is claimed")
                    batch.released.append(release)
                    stop.stop(busy)
                    continue
                }
                batch.finished.append(run)
                pace.record(started.duration(to: .now))
                ran?()
            }
            let waited = claimed.claimedAt.duration(to: .now).timeInterval
            batch.mayWait = !claimed.requests.contains { hasWaitedTooLong($0, waited: waited, plan: plan) }
            if let recording { result.add(await recording.value) }
            if recordFailed.withLock({ $0 }) {
                _ = await ahead?.value
                break
            }
            unrecorded = batch
        }
        return result
    }

    /// A batch of claimed requests, prepared (`prepare(_:)`).
    private struct ClaimedBatch: Sendable {
        var requests: [ClaimedTaskRequest] = []
        /// When the claim was made: the runs' waits count from it.
        var claimedAt = ContinuousClock.now
        /// Claimed while the batch before it ran.
        var ahead: Bool
        var error: StorageError?
    }

    /// Makes `claim` and prepares what it took; a failed claim takes nothing and says why.
    private func claim(_ claim: TaskClaim, backlog: Backlog, ahead: Bool) async -> ClaimedBatch {
        let requests: [ClaimedTaskRequest]
        do {
            requests = try await store.claimTaskRequests(claim)
        } catch {
            return ClaimedBatch(ahead: ahead, error: error)
        }
        backlog.claimed(requests.count)
        let claimed = ClaimedBatch(requests: requests, ahead: ahead)
        await prepare(requests)
        return claimed
    }

    /// Calls each task's batch preparation (`BatchPreparation`) with the scopes of its requests in `claimed`, in
    /// claim order; it counts in the batch's wait, as the runs' own reads would have.
    private func prepare(_ claimed: [ClaimedTaskRequest]) async {
        var scopes: [TaskIdentifier: [TaskScope]] = [:]
        var order: [TaskIdentifier] = []
        for item in claimed {
            guard let request = ScheduledRequest(item.request), registration(for: request.identifier)?.prepare != nil
            else { continue }
            if scopes[request.identifier] == nil { order.append(request.identifier) }
            scopes[request.identifier, default: []].append(request.scope)
        }
        for identifier in order {
            await registration(for: identifier)?.prepare?(scopes[identifier]!)
        }
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
    /// waiting while another runs the rest of a whole batch (up to `claimBatchLimit` retrains). Requests
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

        /// Whether runs are quick enough for the next claim to be made while a batch runs: several make a claim, so
        /// a batch claimed ahead waits about `duration`, a small part of any budget.
        var claimsAhead: Bool { batchSize > 1 }

        mutating func record(_ duration: Duration) {
            runs += 1
            total += duration
        }
    }

    /// A run that ended and is waiting to be recorded with its batch.
    private struct FinishedRun: Sendable {
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
                claimed, owner: owner, outcome: outcome.stored, reason: reason, retryAt: retryAt, discard: discard,
                periods: periods, writes: writes)
        }
    }

    /// Runs one claimed request, `waited` real seconds after its claim, and says how it ended; nothing
    /// is written until `record`.
    private func execute(_ claimed: ClaimedTaskRequest, owner: String, waited: TimeInterval, plan: LaunchPlan) async
        -> FinishedRun
    {
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
                identifier: request.identifier, scope: request.scope, kind: request.kind,
                lease: claimed.lease(owner: owner),
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

    /// The runs of a batch and its claims given back unrun, waiting to be recorded.
    private struct RanBatch: Sendable {
        var finished: [FinishedRun] = []
        var released: [TaskClaimRelease] = []
        /// Whether every claim of the batch has more than half its budget left: then its record may wait for the
        /// next claim.
        var mayWait = true
    }

    /// Records `batch` (`record(_:releasing:owner:)`). A failure stops the worker: `failed` is set, and a busy
    /// database stops the launch as a claim that found it busy does.
    private func record(_ batch: RanBatch, owner: String, stop: Stop, failed: Locked<Bool>) async
        -> Result<[TaskRun], SchedulingError>
    {
        do {
            return .success(try await record(batch.finished, releasing: batch.released, owner: owner))
        } catch {
            failed.withLock { $0 = true }
            if case .storage(let failure) = error, failure.isBusy {
                stop.stop(failure)
                return .success([])
            }
            return .failure(error)
        }
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
        return TaskRun(
            identifier: request.identifier, scope: request.scope, kind: request.kind, attempt: request.attempts,
            worker: owner, startedAt: run.startedAt, finishedAt: clock.now, outcome: outcome, reason: reason,
            periods: run.periods ?? 1, wasDiscarded: run.discard)
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
