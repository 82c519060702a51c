public import Domain
public import Foundation

/// The scheduler's persistence (DESIGN §4): task requests, their leases and the run history, and the policy
/// that spans their statements — how a run and its successor settle, how a claim is given back — written once for
/// every database (the statements are in `SQL+Scheduler.swift`).
///
/// Requests and runs are rows, not Swift types: `Scheduling` gives them meaning. Identifiers and
/// scopes are plain text here (a scope is a user id, or `""` for a request that belongs to no user).
/// Every change that must be atomic — a claim with the runs it opens and closes, a completion with
/// its run record — happens in one write transaction, and the claim itself is a single statement
/// (`UPDATE … RETURNING`; on PostgreSQL over rows taken `FOR UPDATE SKIP LOCKED`), so workers on
/// any number of hosts never run one request twice.
extension Store {
    // MARK: Submitting

    /// Persists a request. `replacing` follows `BGTaskScheduler.submit`: a pending request with the
    /// same identifier and scope is replaced (its attempt count starts again). Otherwise (WorkManager's
    /// KEEP) the request is inserted only when no request of that identifier and scope exists at all,
    /// pending or running, and none is kept among the discarded requests, so a launch never starts a second
    /// copy of a chain that is running, nor restarts one that was discarded.
    ///
    /// - Returns: whether the request was stored (always `true` when `replacing`).
    @discardableResult
    public func submit(_ request: NewTaskRequest, replacing: Bool) throws(StorageError) -> Bool {
        try submit([request], replacing: replacing) == 1
    }

    /// Submits several requests in one transaction; returns how many were stored.
    @discardableResult
    public func submit(_ requests: [NewTaskRequest], replacing: Bool) throws(StorageError) -> Int {
        guard !requests.isEmpty else { return 0 }
        return try write { () throws(StorageError) in replacing ? try replace(requests) : try keep(requests) }
    }

    /// `.replace`: the requests upserted in one statement against the partial unique index of pending requests, so
    /// two processes submitting at once cannot leave two pending rows; of two for one chain, the later is kept.
    private func replace(_ requests: [NewTaskRequest]) throws(StorageError) -> Int {
        var last: [ChainKey: Int] = [:]
        for (index, request) in requests.enumerated() { last[request.chain] = index }
        let rows = requests.enumerated().filter { last[$1.chain] == $0 }.map { $1.row }
        try driver.run(.replaceTaskRequests, [SQLValue.rows(rows), now])
        return requests.count
    }

    /// `.keep` for many requests in two statements (a launch starting every user's chains): one inserts, in
    /// order, each request whose chain has no request and was never discarded (a second request of one chain in
    /// `requests` conflicts with the first and is skipped); the other withdraws each inserted row whose chain
    /// another transaction has given a request meanwhile. On PostgreSQL the first statement's NOT EXISTS reads the
    /// snapshot its statement started with, and the unique index covers pending requests only: a request another
    /// launch inserted and a worker claimed meanwhile is in neither, so the insert can succeed next to it — a
    /// second request of one chain, due at once, that a worker would run again. The second statement sees every
    /// commit up to now, that request among them (its handler cannot submit a successor, and so cannot finish,
    /// before this transaction ends: the successor's insert waits on this row). SQLite's write lock leaves it
    /// nothing to withdraw. The rows of one call belong to different chains, so the withdrawal never counts one of
    /// them against another.
    private func keep(_ requests: [NewTaskRequest]) throws(StorageError) -> Int {
        let inserted = try driver.rows(.keepTaskRequests, [SQLValue.rows(requests.map(\.row)), now]) { $0.int64(0) }
        guard !inserted.isEmpty else { return 0 }
        return inserted.count - (try driver.run(.withdrawTaskRequests, [SQLValue.integers(inserted)]))
    }

    /// Makes the pending requests that match due now (`pipeline retrain --force`): an
    /// `earliest_begin_at` in the future, including a retry's backoff, is moved to now. Running
    /// requests are not touched. Returns how many changed.
    @discardableResult
    public func makeTaskRequestsDue(identifiers: [String], scope: String?) throws(StorageError) -> Int {
        try write { () throws(StorageError) in
            try driver.run(.makeTaskRequestsDue, [now, SQLValue.texts(identifiers), scope])
        }
    }

    /// Deletes pending requests (a running request finishes its run). `nil` matches every identifier
    /// or scope. Returns how many were deleted.
    @discardableResult
    public func cancelTaskRequests(identifier: String?, scope: String?) throws(StorageError) -> Int {
        try write { () throws(StorageError) in try driver.run(.deletePendingTaskRequests, [identifier, scope]) }
    }

    // MARK: Reading requests

    /// Requests, pending and running, ordered by when they may begin. `nil` matches everything.
    public func taskRequests(identifier: String? = nil, scope: String? = nil) throws(StorageError)
        -> [TaskRequestRecord]
    {
        try driver.rows(.taskRequests, [identifier, scope]) { TaskRequestRecord(row: $0, readingLastError: true) }
    }

    /// The highest request id so far (0 for none).
    public func latestTaskRequestID() throws(StorageError) -> Int64 {
        try driver.row(.latestTaskRequestID, []) { $0.int64(0) } ?? 0
    }

    /// How many requests of `identifiers` (of `scope`, when given), with an id up to `upToRequestID`, no lease
    /// and their time come at `now`: the requests a launch's workers are about to claim, whatever their
    /// conditions (so at most one too many of those the machine cannot run). One count over an index.
    public func dueTaskRequestCount(identifiers: [String], scope: String?, at now: Date, upToRequestID: Int64)
        throws(StorageError) -> Int
    {
        try driver.integer(.dueTaskRequestCount, [SQLValue.texts(identifiers), scope, now, upToRequestID])
    }

    /// Users with no request of `identifier` at all, pending or running: the scopes a launch must
    /// start the chain for. In id order: the first `limit` after the id `after`, so a launch over many
    /// users takes them a page at a time.
    public func usersWithoutTaskRequest(identifier: String, after: UserID? = nil, limit: Int = Int.max)
        throws(StorageError) -> [User]
    {
        // '' sorts before every id (ids are never empty): the first page is the one after it.
        try driver.rows(
            .usersWithoutTaskRequest, [identifier, after?.rawValue ?? "", Int64(clamping: limit)], User.init(row:))
    }

    /// Which of `scopes` have a pending request of `identifier`, in one query (each chain looked up in the index of
    /// pending requests).
    public func scopesWithPendingRequest(identifier: String, among scopes: [String]) throws(StorageError) -> Set<String>
    {
        Set(try pendingChains(scopes.map { ChainKey(identifier: identifier, scope: $0) }).map(\.scope))
    }

    /// Takes the page of chain starts of `identifier` beginning at user `first` for this store's launch, or returns
    /// false when another launch holds it. Two processes launched at once (cron on two hosts) page through the same
    /// users without a request; each skips the pages the other is starting instead of preparing the same requests
    /// and waiting on the other's uncommitted rows. On PostgreSQL a session advisory lock, dropped with the
    /// connection if the process dies; SQLite's one writer already makes the pages take turns, so it always succeeds.
    public func claimChainStarts(identifier: String, from first: UserID) throws(StorageError) -> Bool {
        try chainStartsLock(identifier, first, take: true)
    }

    /// Lets go of a page `claimChainStarts` took, once its requests are committed.
    public func releaseChainStarts(identifier: String, from first: UserID) throws(StorageError) {
        _ = try chainStartsLock(identifier, first, take: false)
    }

    private func chainStartsLock(_ identifier: String, _ first: UserID, take: Bool) throws(StorageError) -> Bool {
        guard backend == .postgresql else { return true }
        return try driver.row(.chainStartsLock, [identifier, first.rawValue, take]) { $0.bool(0) } ?? false
    }

    /// What a launch left behind among the requests of `identifiers` (and `scope`, when given), at
    /// most `limit` of them by id: those another worker's lease holds at `now`, and those due at `now`
    /// (with an id up to `upToRequestID`) whose conditions the machine does not meet. Read without
    /// loading every request.
    public func heldOrWaitingTaskRequests(
        identifiers: [String], scope: String?, at now: Date, upToRequestID: Int64, isOnExternalPower: Bool,
        hasNetworkConnectivity: Bool, limit: Int
    ) throws(StorageError) -> [TaskRequestRecord] {
        try driver.rows(
            .heldOrWaitingTaskRequests,
            [
                SQLValue.texts(identifiers), scope, now, upToRequestID, isOnExternalPower, hasNetworkConnectivity,
                Int64(clamping: limit),
            ]
        ) { TaskRequestRecord(row: $0) }
    }

    // MARK: Claiming and finishing

    /// Claims up to `claim.limit` due requests for `claim.owner` and opens a run for each, in one
    /// transaction.
    ///
    /// Due means: not before `earliest_begin_at`, not leased (or leased by a worker whose lease
    /// expired — it died), its conditions met, its identifier among `claim.identifiers`. The claim
    /// is one statement that counts the attempt. A reclaimed request's open run is closed as a
    /// failure ("lease expired: worker died") at the moment its lease expired. Returned in the order
    /// the requests became due.
    public func claimTaskRequests(_ claim: TaskClaim) throws(StorageError) -> [ClaimedTaskRequest] {
        try write { () throws(StorageError) in
            // A claim for one task takes the form that walks the per-task index.
            let claimed = try driver.rows(
                claim.identifiers.count == 1 ? .claimTaskRequestsOfTask : .claimTaskRequests,
                [
                    claim.owner, now, Int64((claim.processingLease * 1000).rounded()),
                    Int64((claim.refreshLease * 1000).rounded()), claim.isOnExternalPower,
                    claim.hasNetworkConnectivity, SQLValue.texts(claim.identifiers), claim.scope, claim.limit,
                    claim.upToRequestID ?? Int64.max,
                ]
            ) { TaskRequestRecord(row: $0) }.sorted {
                ($0.earliestBeginAt ?? $0.submittedAt, $0.id) < ($1.earliestBeginAt ?? $1.submittedAt, $1.id)
            }
            guard !claimed.isEmpty else { return [] }
            let ids = SQLValue.integers(claimed.map(\.id))
            let abandoned = try driver.rows(.closeAbandonedRuns, [ids]) { row in
                (
                    request: row.int64(0), worker: row.string(1),
                    run: FinishedRun(id: row.int64(2), finishedAt: row.int64(3))
                )
            }
            try recordLatestRuns(abandoned.map(\.run))
            let deadWorkers = Dictionary(abandoned.map { ($0.request, $0.worker) }, uniquingKeysWith: { $1 })
            let runs = Dictionary(
                try driver.rows(.openRuns, [ids]) { ($0.int64(1), $0.int64(0)) }, uniquingKeysWith: { $1 })
            return claimed.map { request in
                guard let runID = runs[request.id] else { preconditionFailure("a claimed request without its run") }
                return ClaimedTaskRequest(request: request, runID: runID, abandonedBy: deadWorkers[request.id])
            }
        }
    }

    /// Records how a run ended and settles its request, in one transaction — but only while the
    /// run's lease holds (`TaskRunCompletion.lease`: its owner and attempt); otherwise nothing changes and the
    /// result is `.leaseLost` (another worker reclaimed the request and already closed this run).
    ///
    /// A successful run deletes its request. An unsuccessful one is retried at `retryAt`: when a
    /// successor is already pending (the handler submitted it first thing), that successor is moved
    /// up to `retryAt` if it is due later and inherits the attempt count and the error, so there is
    /// still one pending request per identifier and scope; otherwise the request itself becomes
    /// pending again. With `discard` the request moves to the discarded requests instead, and a
    /// pending successor keeps its own date and count.
    public func finishTaskRun(_ completion: TaskRunCompletion) throws(StorageError) -> TaskRunFinish {
        try finishTaskRuns([completion])[0]
    }

    /// Finishes several runs in one transaction, each as `finishTaskRun` does, after storing the
    /// writes it carries (`TaskRunCompletion.writes`), and gives back claims that were never run
    /// (`releasing`). A run whose lease was lost stores none of its writes. Returns one result per
    /// completion, in order.
    ///
    /// A lease holds until another worker's claim takes the request over, not until its expiry: a run that ends
    /// after its lease expired, while no claim has taken the request over, is recorded as usual, with its writes,
    /// on both databases. Expiry only makes a request claimable; the claim, one statement that changes the owner
    /// and counts the next attempt, is what ends a lease. So the fence compares no clocks (the finishing worker's
    /// may be another machine's, or `--now`), and a run is never both refused and left to no one: refusing it
    /// would only throw its work away for the next launch to do again.
    ///
    /// All or nothing: when any statement fails, the transaction rolls back and nothing of the batch
    /// is stored; its runs stay leased, and are claimed again once their leases expire.
    ///
    /// A batch is a few statements whatever its size: the leases checked in one, the writes of the runs that
    /// hold theirs stored in one or two per kind (`store(_:)`), the chains with a pending request read in one, the
    /// successful runs' requests deleted in one and every run closed in one; only a retry, a discard and a release
    /// take statements of their own. Each run's chain is looked at after every write of the batch.
    public func finishTaskRuns(_ completions: [TaskRunCompletion], releasing: [TaskClaimRelease] = [])
        throws(StorageError) -> [TaskRunFinish]
    {
        guard !completions.isEmpty || !releasing.isEmpty else { return [] }
        return try write { () throws(StorageError) in
            let held = try leasedRequests(completions.map(\.lease))
            try store(completions.filter { held[$0.lease.requestID] != nil }.flatMap(\.writes))
            // A run's own request is leased, so never counted; a successor the batch's writes submitted is.
            let pending = try pendingChains(held.values.map(\.chain))
            var finishes: [TaskRunFinish] = []
            var succeeded: [Int64] = []
            var closed: [[SQLValue]] = []
            var runs: [FinishedRun] = []
            for completion in completions {
                guard let request = held[completion.lease.requestID] else {
                    finishes.append(.leaseLost)
                    continue
                }
                let successorPending = try settle(
                    completion, request, successorPending: pending.contains(request.chain))
                if !completion.discard && completion.retryAt == nil { succeeded.append(completion.lease.requestID) }
                runs.append(FinishedRun(id: completion.runID, finishedAt: now))
                closed.append([
                    .integer(completion.runID), .text(completion.outcome.rawValue), completion.reason.sqlValue,
                    .boolean(successorPending), completion.periods.sqlValue,
                ])
                finishes.append(.recorded(successorPending: successorPending))
            }
            if !succeeded.isEmpty { try driver.run(.deleteTaskRequests, [SQLValue.integers(succeeded)]) }
            if !closed.isEmpty {
                try driver.run(.finishRuns, [SQLValue.integers(runs.map(\.id)), SQLValue.rows(closed), now])
                // PostgreSQL's statement records them itself, without another round trip (`SQL.finishRuns`).
                if backend == .sqlite { try recordLatestRuns(runs) }
            }
            for claim in releasing { try release(claim) }
            return finishes
        }
    }

    /// Whether `lease` still holds, checked inside the caller's write transaction (a `batch`), so that the writes
    /// after the check land only while it holds: on PostgreSQL the request stays locked until the transaction
    /// ends, and a claim taking it over skips it until then; SQLite has one writer. For a handler's writes that
    /// cannot wait for its run's record (`BackgroundTask.lease`). As `finishTaskRuns`, an expired lease that no
    /// claim has taken over still holds.
    public func holdsLease(_ lease: TaskLease) throws(StorageError) -> Bool {
        try leasedRequests([lease])[lease.requestID] != nil
    }

    /// A leased request as its lease holds it: its chain and its attempts.
    private struct HeldRequest {
        var chain: ChainKey
        var attempts: Int
    }

    /// A finished run by its id and finish (milliseconds): on PostgreSQL the finish names the day that holds it.
    private struct FinishedRun {
        var id: Int64
        var finishedAt: Int64
    }

    /// Records the chains' latest finished runs among `runs` (just finished), in one statement: what status reads
    /// and history keeps showing after the runs themselves are pruned.
    private func recordLatestRuns(_ runs: [FinishedRun]) throws(StorageError) {
        guard !runs.isEmpty else { return }
        let finishes = runs.map(\.finishedAt)
        try driver.run(.recordLatestRuns, [SQLValue.integers(runs.map(\.id)), finishes.min(), finishes.max()])
    }

    /// An identifier and a scope: the requests of one chain.
    fileprivate struct ChainKey: Hashable {
        var identifier: String
        var scope: String
    }

    /// The requests `leases` hold, by id — on PostgreSQL locked, so a claim reclaiming one (its lease expired)
    /// skips it until the transaction commits, and then sees it settled. A lease another claim has taken over
    /// (or whose request was settled) holds none.
    private func leasedRequests(_ leases: [TaskLease]) throws(StorageError) -> [Int64: HeldRequest] {
        guard !leases.isEmpty else { return [:] }
        let rows = leases.map { [SQLValue.integer($0.requestID), .text($0.owner), .integer(Int64($0.attempt))] }
        return Dictionary(
            try driver.rows(.leasedTaskRequests, [SQLValue.integers(leases.map(\.requestID)), SQLValue.rows(rows)]) {
                row in
                let chain = ChainKey(identifier: row.string(1), scope: row.string(2))
                return (row.int64(0), HeldRequest(chain: chain, attempts: row.int(3)))
            }, uniquingKeysWith: { first, _ in first })
    }

    /// Which of `chains` have a pending request.
    private func pendingChains(_ chains: [ChainKey]) throws(StorageError) -> Set<ChainKey> {
        guard !chains.isEmpty else { return [] }
        return Set(
            try driver.rows(
                .pendingTaskChains, [SQLValue.texts(chains.map(\.identifier)), SQLValue.texts(chains.map(\.scope))]
            ) { ChainKey(identifier: $0.string(0), scope: $0.string(1)) })
    }

    /// What runs carried to store with their records, each kind in a statement or two whatever their number.
    private func store(_ writes: [TaskRunWrite]) throws(StorageError) {
        var submits: [NewTaskRequest] = []
        var models: [StoredModel] = []
        var messages: [NewOutboxMessage] = []
        for write in writes {
            switch write {
            case .submit(let request): submits.append(request)
            case .save(let model): models.append(model)
            case .post(let message): messages.append(message)
            }
        }
        if !submits.isEmpty { _ = try replace(submits) }
        try insertModels(models)
        _ = try insertOutboxMessages(messages)
    }

    /// A discarded or retried run's request settled, inside `finishTaskRuns`' transaction (a successful run's is
    /// deleted with the batch's); whether a request of its chain is pending after.
    private func settle(_ completion: TaskRunCompletion, _ held: HeldRequest, successorPending pending: Bool)
        throws(StorageError) -> Bool
    {
        let id = completion.lease.requestID
        var successorPending = pending
        if completion.discard {
            try discardRequests([id], error: completion.reason, cause: .attempts)
        } else if let retryAt = completion.retryAt {
            if !successorPending {
                // The request itself waits again. A submit on another host may have made a successor pending
                // since the check: the unique index refuses a second pending request, having changed nothing, and
                // the successor takes the retry instead.
                successorPending =
                    try refusal(where: \.isUniqueViolation) { () throws(StorageError) in
                        try driver.run(.retryTaskRequest, [id, retryAt, completion.reason])
                    } != nil
            }
            if successorPending {
                try driver.run(
                    .moveSuccessorUp,
                    [held.chain.identifier, held.chain.scope, retryAt, held.attempts, completion.reason])
                try driver.run(.deleteTaskRequests, [SQLValue.integers([id])])
            }
        }
        return successorPending
    }

    /// Gives back a claim never run (`TaskClaimRelease`), inside `finishTaskRuns`' transaction: pending again
    /// with its attempt uncounted, its run deleted; or deleted itself when a request of its task and scope is
    /// pending already (a submit on another host may make one pending meanwhile, which the unique index then
    /// shows).
    private func release(_ claim: TaskClaimRelease) throws(StorageError) {
        let id = claim.lease.requestID
        guard let held = try leasedRequests([claim.lease])[id] else { return }
        var superseded = try !pendingChains([held.chain]).isEmpty
        if !superseded {
            superseded =
                try refusal(where: \.isUniqueViolation) { () throws(StorageError) in
                    try driver.run(.releaseTaskRequest, [id])
                } != nil
        }
        if superseded { try driver.run(.deleteTaskRequests, [SQLValue.integers([id])]) }
        try driver.run(.deleteUnfinishedRun, [claim.runID])
    }

    /// Moves the requests `ids` into the discarded requests, inside the caller's transaction, in two statements
    /// whatever their number.
    func discardRequests(_ ids: [Int64], error: String?, cause: DiscardCause) throws(StorageError) {
        guard !ids.isEmpty else { return }
        try driver.run(.discardTaskRequests, [SQLValue.integers(ids), error, cause.rawValue, now])
        try driver.run(.deleteTaskRequests, [SQLValue.integers(ids)])
    }

    // MARK: History and status

    /// Runs, oldest first. `nil` matches everything; `limit` keeps the most recent ones. Runs still
    /// in progress are included only with `includeUnfinished`.
    public func taskRuns(
        identifier: String? = nil, scope: String? = nil, limit: Int? = nil, includeUnfinished: Bool = false
    ) throws(StorageError) -> [TaskRunRecord] {
        try driver.rows(
            .taskRuns, [identifier, scope, includeUnfinished, Int64(clamping: limit ?? Int.max)],
            TaskRunRecord.init(row:))
    }

    /// The latest finished run of each identifier and scope that succeeded without leaving a
    /// successor pending: a handler that did not reschedule itself (DESIGN §8, bug 10).
    public func brokenTaskChains() throws(StorageError) -> [TaskRunRecord] {
        try driver.rows(.brokenTaskChains, [], TaskRunRecord.init(row:))
    }

    /// Scopes that never had a request of `identifier` and never ran it: every user for a per-user
    /// task, or `""` for a global one. A launch starts these chains; a database that only ever saw
    /// ingestion has them all (DESIGN §8, bug 1).
    public func scopesNeverSubmitted(identifier: String, perUser: Bool) throws(StorageError) -> [String] {
        try driver.rows(perUser ? .usersNeverSubmitted : .globalScopeNeverSubmitted, [identifier]) { $0.string(0) }
    }

    /// Requests whose lease expired at least `refreshAge` (refresh) or `processingAge` (processing)
    /// seconds ago and that no launch has reclaimed since: nothing is running them.
    public func staleTaskLeases(refreshAge: TimeInterval, processingAge: TimeInterval) throws(StorageError)
        -> [TaskRequestRecord]
    {
        try driver.rows(
            .staleTaskLeases, [now, Int64((processingAge * 1000).rounded()), Int64((refreshAge * 1000).rounded())]
        ) { TaskRequestRecord(row: $0) }
    }

    /// Counts of requests by identifier, as of the store's clock.
    public func taskRequestCounts() throws(StorageError) -> [String: TaskRequestCounts] {
        let counts = try driver.rows(.taskRequestCounts, [now]) { row in
            (
                row.string(0),
                TaskRequestCounts(pending: row.int(1), due: row.int(2), running: row.int(3), abandoned: row.int(4))
            )
        }
        return Dictionary(counts, uniquingKeysWith: { $1 })
    }

    /// Totals over the whole run history by identifier and outcome, for metrics and status.
    public func taskRunTotals() throws(StorageError) -> [TaskRunTotal] {
        try driver.rows(.taskRunTotals, []) { row in
            TaskRunOutcome(rawValue: row.string(1)).map { outcome in
                TaskRunTotal(
                    identifier: row.string(0), outcome: outcome, runs: row.int(2),
                    totalDuration: Double(row.int64(3)) / 1000, lastFinishedAt: row.date(4))
            }
        }
    }
}

extension NewTaskRequest {
    fileprivate var chain: Store.ChainKey { Store.ChainKey(identifier: identifier, scope: scope) }

    /// The request as a row of `SQL.replaceTaskRequests` and `SQL.keepTaskRequests`.
    fileprivate var row: [SQLValue] {
        [
            .text(identifier), .text(scope), .text(kind.rawValue), earliestBeginAt.sqlValue,
            .boolean(requiresExternalPower), .boolean(requiresNetwork),
        ]
    }
}

extension TaskRequestRecord {
    /// A row of these columns, in this order: id, identifier, scope, kind, earliest_begin_at,
    /// requires_external_power, requires_network, submitted_at, attempts, lease_owner, lease_expires_at,
    /// claimed_at, and with `readingLastError` last_error. `nil` for a kind this version does not know.
    init?(row: any RowReader, readingLastError: Bool = false) {
        guard let kind = TaskRequestKind(rawValue: row.string(3)) else { return nil }
        self.init(
            id: row.int64(0), identifier: row.string(1), scope: row.string(2), kind: kind,
            earliestBeginAt: row.optionalDate(4), requiresExternalPower: row.bool(5), requiresNetwork: row.bool(6),
            submittedAt: row.date(7), attempts: row.int(8), leaseOwner: row.optionalString(9),
            leaseExpiresAt: row.optionalDate(10), claimedAt: row.optionalDate(11),
            lastError: readingLastError ? row.optionalString(12) : nil)
    }
}

extension TaskRunRecord {
    /// A row of `SQL.taskRuns`' columns.
    init?(row: any RowReader) {
        guard let kind = TaskRequestKind(rawValue: row.string(4)) else { return nil }
        self.init(
            id: row.int64(0), requestID: row.int64(1), identifier: row.string(2), scope: row.string(3), kind: kind,
            attempt: row.int(5), worker: row.string(6), startedAt: row.date(7), leaseExpiresAt: row.date(8),
            finishedAt: row.optionalDate(9), outcome: row.optionalString(10).flatMap(TaskRunOutcome.init(rawValue:)),
            reason: row.optionalString(11), successorPending: row.optionalBool(12), periods: row.optionalInt(13))
    }
}
