import Domain
public import Foundation
public import Storage

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

/// What a launch did.
public struct LaunchReport: Sendable {
    /// First requests submitted for scopes that had none (new users, or a database never launched).
    public var startedChains = 0
    /// The runs of this launch, in the order they finished.
    public var runs: [TaskRun] = []
    /// Runs taken over from workers that died (their lease had expired).
    public var reclaimed = 0
    /// Due requests that match the plan but did not run because their conditions are unmet.
    public var waitingForConditions: [ScheduledRequest] = []
    /// Due requests that match the plan and another worker is running.
    public var runningElsewhere: [ScheduledRequest] = []
    /// Runs that were their request's last attempt: the request left the schedule as discarded.
    public var discarded: [TaskRun] = []
    /// Old history this launch deleted (`SchedulerConfiguration.historyRetention`).
    public var pruned = PrunedHistory()

    public init() {}

    /// Runs that did not succeed.
    public var unsuccessfulRuns: [TaskRun] { runs.filter { $0.outcome != .success } }
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
    @discardableResult
    public func launch(
        _ plan: LaunchPlan = LaunchPlan(), registering register: (TaskRegistrar) throws(SchedulingError) -> Void
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
        guard !selected.isEmpty else { return report }
        let names = selected.map(\.rawValue)
        let cutoff: Int64
        do {
            if plan.force {
                try await store.makeTaskRequestsDue(identifiers: names, scope: plan.scope?.storageKey)
            }
            cutoff = try await store.latestTaskRequestID()
        } catch {
            throw .storage(error)
        }

        let results = await withTaskGroup(of: WorkerResult.self) { group in
            for index in 1...max(1, plan.jobs) {
                group.addTask {
                    await self.work(as: "\(self.worker)/\(index)", plan: plan, identifiers: names, upTo: cutoff)
                }
            }
            var results: [WorkerResult] = []
            for await result in group { results.append(result) }
            return results
        }
        for result in results {
            report.runs += result.runs
            report.reclaimed += result.reclaimed
        }
        report.runs.sort {
            ($0.finishedAt ?? $0.startedAt, $0.startedAt) < ($1.finishedAt ?? $1.startedAt, $1.startedAt)
        }
        report.discarded = report.runs.filter(\.wasDiscarded)
        if let failure = results.compactMap(\.error).first { throw failure }
        // History grows only by runs, so a launch that ran nothing has nothing new to prune and stays quick.
        if !report.runs.isEmpty { report.pruned = try await pruneHistory() }

        let now = clock.now
        let conditions = conditions.currentConditions()
        for identifier in selected {
            for request in try await pendingRequests(identifier: identifier, scope: plan.scope) {
                if let lease = request.lease {
                    if lease.expiresAt > now { report.runningElsewhere.append(request) }
                } else if request.isDue(at: now), request.id <= cutoff,
                    !conditions.allow(
                        requiresExternalPower: request.requiresExternalPower,
                        requiresNetwork: request.requiresNetworkConnectivity)
                {
                    report.waitingForConditions.append(request)
                }
            }
        }
        return report
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
    /// that has no request of it. Returns how many were stored.
    private func startChains() async throws(SchedulingError) -> Int {
        var requests: [NewTaskRequest] = []
        var startedOneByOne = 0
        for identifier in registeredIdentifiers {
            guard let registration = registration(for: identifier) else { continue }
            let scopes: [(TaskScope, User?)]
            do {
                switch registration.scope {
                case .everyUser:
                    scopes = try await store.usersWithoutTaskRequest(identifier: identifier.rawValue)
                        .map { (.user($0.id), $0) }
                case .global:
                    let existing = try await store.taskRequests(identifier: identifier.rawValue, scope: "")
                    let discarded = try await store.discardedTaskRequests(identifier: identifier.rawValue, scope: "")
                    scopes = existing.isEmpty && discarded.isEmpty ? [(.global, nil)] : []
                }
            } catch {
                throw .storage(error)
            }
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
                if configuration.pendingRequestLimit != nil {
                    // One at a time, so that each counts against the limit for the next.
                    do {
                        try await checkPendingLimit(request)
                    } catch let refusal where refusal.isTooManyPending {
                        log.log(.warning, "\(identifier) [\(scope)]: chain not started: \(refusal)")
                        continue
                    }
                    do {
                        if try await store.submit(request.record, replacing: false) { startedOneByOne += 1 }
                    } catch {
                        throw .storage(error)
                    }
                    continue
                }
                requests.append(request.record)
            }
        }
        do {
            let started = try await store.submit(requests, replacing: false) + startedOneByOne
            if started > 0 { log.log(.info, "started \(started) task chain\(started == 1 ? "" : "s")") }
            return started
        } catch {
            throw .storage(error)
        }
    }

    private struct WorkerResult: Sendable {
        var runs: [TaskRun] = []
        var reclaimed = 0
        var error: SchedulingError?
    }

    /// One worker: claims a due request, runs it, records it, until nothing is due.
    private func work(as owner: String, plan: LaunchPlan, identifiers: [String], upTo cutoff: Int64) async
        -> WorkerResult
    {
        var result = WorkerResult()
        let grace = configuration.expiryGrace
        while !Task.isCancelled {
            let conditions = conditions.currentConditions()
            let claim = TaskClaim(
                owner: owner, refreshLease: (plan.budget ?? configuration.refreshBudget) + grace,
                processingLease: (plan.budget ?? configuration.processingBudget) + grace,
                isOnExternalPower: conditions.isOnExternalPower,
                hasNetworkConnectivity: conditions.hasNetworkConnectivity, identifiers: identifiers,
                scope: plan.scope?.storageKey, limit: 1, upToRequestID: cutoff)
            let claimed: ClaimedTaskRequest
            do {
                guard let first = try await store.claimTaskRequests(claim).first else { break }
                claimed = first
            } catch {
                result.error = .storage(error)
                break
            }
            if let dead = claimed.abandonedBy {
                result.reclaimed += 1
                log.log(
                    .warning,
                    "\(claimed.request.identifier) [\(claimed.request.scope.isEmpty ? "global" : claimed.request.scope)]: "
                        + "worker \(dead) died during its run (lease expired); running it again")
            }
            do {
                if let run = try await execute(claimed, owner: owner, plan: plan) { result.runs.append(run) }
            } catch {
                result.error = error
                break
            }
        }
        return result
    }

    /// Runs one claimed request and records how it ended.
    private func execute(_ claimed: ClaimedTaskRequest, owner: String, plan: LaunchPlan)
        async throws(SchedulingError) -> TaskRun?
    {
        let record = claimed.request
        let startedAt = record.claimedAt ?? clock.now
        var outcome: TaskOutcome
        var reason: String?
        let request = ScheduledRequest(record)
        let label = "\(record.identifier) [\(record.scope.isEmpty ? "global" : record.scope)]"
        if let request, let registration = registration(for: request.identifier) {
            let task = BackgroundTask(
                identifier: request.identifier, scope: request.scope, kind: request.kind, attempt: request.attempts,
                budget: plan.budget ?? configuration.budget(for: request.kind), startedAt: startedAt,
                earliestBeginDate: request.earliestBeginDate, scheduler: self, log: log)
            log.log(.info, "\(label): running (attempt \(request.attempts))")
            (outcome, reason) = await TaskExecution(
                task: task, handler: registration.handler, timer: timer, grace: configuration.expiryGrace, log: log
            ).run()
        } else {
            // Claims only take registered identifiers, so only an unreadable row lands here.
            (outcome, reason) = (.failure, "the stored request could not be read")
        }

        let discard = outcome != .success && configuration.isLastAttempt(record.attempts)
        if discard {
            reason = (reason.map { $0 + "; " } ?? "") + "discarded after \(record.attempts) attempts"
        }
        let retryAt =
            outcome == .success || discard
            ? nil
            : clock.now.addingTimeInterval(
                configuration.retryDelay(
                    afterAttempt: record.attempts,
                    unit: SchedulerConfiguration.jitterUnit(request: record.id, attempt: record.attempts)))
        let periods = request.flatMap { request in
            registration(for: request.identifier).flatMap { Self.periods(of: request, startedAt: startedAt, $0) }
        }
        let completion = TaskRunCompletion(
            runID: claimed.runID, requestID: record.id, owner: owner, outcome: outcome.stored, reason: reason,
            retryAt: retryAt, discard: discard, periods: periods)
        let finish: TaskRunFinish
        do {
            finish = try await store.finishTaskRun(completion)
        } catch let error where error.isIOFailure {
            // A full disk: the run's own writes failed, and so did this one. Giving back the space
            // the database's log holds usually leaves room for this small write, so the run is
            // recorded and its lease released now rather than held until it expires. The launch
            // then stops with the error: nothing more can be written.
            log.log(
                .error, "\(label): could not record its run (\(error)); freeing the database's log and trying again")
            do {
                try await store.reclaimLogSpace()
                finish = try await store.finishTaskRun(completion)
            } catch {
                throw .storage(error)
            }
            if case .recorded = finish { throw .storage(error) }
        } catch {
            throw .storage(error)
        }
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
            } else if let retryAt {
                log.log(
                    .warning,
                    "\(label): \(outcome)" + (reason.map { ": \($0)" } ?? "")
                        + "; retrying not before \(ISO8601Instant.string(from: retryAt))")
            } else if discard {
                log.log(
                    .error,
                    "\(label): \(outcome)" + (reason.map { ": \($0)" } ?? "")
                        + "; see 'pipeline requests --state discarded', then 'pipeline requests retry'")
            }
        }
        guard let request else { return nil }
        var run = TaskRun(
            identifier: request.identifier, scope: request.scope, kind: request.kind, attempt: request.attempts,
            worker: owner, startedAt: startedAt)
        run.finishedAt = clock.now
        run.outcome = outcome
        run.reason = reason
        run.periods = periods ?? 1
        run.wasDiscarded = discard
        return run
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
