import Domain
import Foundation
import Storage
import Synchronization

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
            // The run history's days ahead, so that this launch's runs land where pruning drops them whole.
            try await store.prepareRunHistory()
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
        if report.runCount > 0 { report.pruned = try await pruneHistory(afterRuns: report.runCount) }

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

    /// Deletes history older than `historyRetention`, and logs what it did: of each kind at most `pruneLimit` rows,
    /// or twice the runs this launch recorded when more (`SchedulerConfiguration.pruneLimit`).
    private func pruneHistory(afterRuns runs: Int) async throws(SchedulingError) -> PrunedHistory {
        guard let retention = configuration.historyRetention else { return PrunedHistory() }
        do {
            let pruned = try await store.pruneHistory(
                before: clock.now.addingTimeInterval(-retention), limit: max(1, configuration.pruneLimit, 2 * runs))
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
            var startedOfTask = 0
            var statisticsDue = Self.requestsWorthStatistics
            do {
                switch registration.scope {
                case .everyUser:
                    var after: UserID?
                    while true {
                        let page = try await store.usersWithoutTaskRequest(
                            identifier: identifier.rawValue, after: after, limit: Self.chainStartsPerTransaction)
                        guard let first = page.first, let last = page.last else { break }
                        after = last.id
                        // A launch at the same moment may be starting this page: then on to the next.
                        guard try await store.claimChainStarts(identifier: identifier.rawValue, from: first.id)
                        else { continue }
                        do {
                            startedOfTask += try await startChains(
                                of: registration, for: page.map { (.user($0.id), $0) })
                        } catch {
                            try? await store.releaseChainStarts(identifier: identifier.rawValue, from: first.id)
                            throw error
                        }
                        try await store.releaseChainStarts(identifier: identifier.rawValue, from: first.id)
                        if startedOfTask >= statisticsDue {
                            try await store.refreshRequestStatistics()
                            statisticsDue = startedOfTask * Self.requestsGrowthBetweenStatistics
                        }
                    }
                    started += startedOfTask
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
        if started >= Self.requestsWorthStatistics {
            do {
                try await store.refreshRequestStatistics()
            } catch {
                throw .storage(error)
            }
        }
        return started
    }

    /// Chains started by one launch from which the requests' statistics are refreshed before anything is claimed
    /// (`Store.refreshRequestStatistics`): far more than a day's new users start, few enough that the claims of a
    /// first launch over a cohort read the requests by their indexes. The same number of one task's chains refreshes
    /// them while they are being started, and again each time that task's requests have grown
    /// `requestsGrowthBetweenStatistics` times since: the page of users without a chain is planned for the table as
    /// it is, and reads its page by index. Planned for the table as it was (empty, or holding other tasks' requests),
    /// it read every request of the task at each page, and a first launch took time in the square of its users. (The
    /// insert of a page's requests and the withdrawal of starts a concurrent launch made look each chain up by index
    /// whatever the statistics: `SQL.keepTaskRequests`.)
    static let requestsWorthStatistics = 1_000

    /// How many times over one task's requests grow, while a launch starts its chains, between two refreshes of the
    /// statistics: a few refreshes per task whatever the number of users, and a planner never more than this far off.
    static let requestsGrowthBetweenStatistics = 4

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
        await registration.prepareChainStarts?(scopes.map(\.0))
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

    /// What one worker of a launch did.
    struct WorkerResult: Sendable {
        var runs = RecentRuns()
        var reclaimed = 0
        var error: SchedulingError?

        /// Takes in what recording a batch did: its runs, or the first error of the worker.
        mutating func add(_ recorded: Result<[TaskRun], SchedulingError>) {
            switch recorded {
            case .success(let recorded): for run in recorded { runs.append(run) }
            case .failure(let failure): error = error ?? failure
            }
        }
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
}
