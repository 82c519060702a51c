import Domain
import Foundation

/// The scheduler's persistence (DESIGN §4): task requests, their leases and the run history.
///
/// Requests and runs are rows, not Swift types: `Scheduling` gives them meaning. Identifiers and
/// scopes are plain text here (a scope is a user id, or `""` for a request that belongs to no user).
/// Every change that must be atomic — a claim with the runs it opens and closes, a completion with
/// its run record — happens in one write transaction. The claim itself is a single `UPDATE …
/// RETURNING` so that a PostgreSQL backend can run it as is with `FOR UPDATE SKIP LOCKED`.
extension SQLiteDriver {
    // MARK: Submitting

    /// Submits several requests in one transaction; returns how many were stored.
    func submit(_ requests: [NewTaskRequest], replacing: Bool) throws(StorageError) -> Int {
        guard !requests.isEmpty else { return 0 }
        return try write { () throws(StorageError) in
            var stored = 0
            for request in requests where try insert(request, replacing: replacing) {
                stored += 1
            }
            return stored
        }
    }

    private func insert(_ request: NewTaskRequest, replacing: Bool) throws(StorageError) -> Bool {
        // Both statements are single upserts against the partial unique index on pending requests,
        // so two processes submitting at once cannot leave two pending rows
        // (https://www.sqlite.org/lang_upsert.html; a partial index needs its WHERE in the target).
        let sql: StaticString =
            replacing
            ? """
            INSERT INTO task_requests (
                identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network, submitted_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            ON CONFLICT (identifier, scope) WHERE lease_owner IS NULL DO UPDATE SET
                kind = excluded.kind, earliest_begin_at = excluded.earliest_begin_at,
                requires_external_power = excluded.requires_external_power,
                requires_network = excluded.requires_network, submitted_at = excluded.submitted_at, attempts = 0
            """
            : """
            INSERT INTO task_requests (
                identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network, submitted_at)
            SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7
            WHERE NOT EXISTS (SELECT 1 FROM task_requests WHERE identifier = ?1 AND scope = ?2)
                AND NOT EXISTS (SELECT 1 FROM discarded_task_requests WHERE identifier = ?1 AND scope = ?2)
            ON CONFLICT (identifier, scope) WHERE lease_owner IS NULL DO NOTHING
            """
        return try connection.withStatement(sql) { (statement) throws(StorageError) in
            try statement.bind(1, request.identifier)
            try statement.bind(2, request.scope)
            try statement.bind(3, request.kind.rawValue)
            try statement.bind(4, request.earliestBeginAt.map(Store.milliseconds))
            try statement.bind(5, request.requiresExternalPower)
            try statement.bind(6, request.requiresNetwork)
            try statement.bind(7, nowMilliseconds)
            try statement.run()
            return connection.changes == 1
        }
    }

    /// Makes the pending requests that match due now (`pipeline retrain --force`): an
    /// `earliest_begin_at` in the future, including a retry's backoff, is moved to now. Running
    /// requests are not touched. Returns how many changed.
    func makeTaskRequestsDue(identifiers: [String], scope: String?) throws(StorageError) -> Int {
        try write { () throws(StorageError) in
            try connection.withStatement(
                """
                UPDATE task_requests SET earliest_begin_at = ?1
                WHERE lease_owner IS NULL AND earliest_begin_at > ?1
                    AND identifier IN (SELECT value FROM json_each(?2)) AND (?3 IS NULL OR scope = ?3)
                """
            ) { (statement) throws(StorageError) in
                try statement.bind(1, nowMilliseconds)
                try statement.bind(2, SQLiteDriver.jsonArray(identifiers))
                try statement.bind(3, scope)
                try statement.run()
                return connection.changes
            }
        }
    }

    /// Deletes pending requests (a running request finishes its run). `nil` matches every identifier
    /// or scope. Returns how many were deleted.
    func cancelTaskRequests(identifier: String?, scope: String?) throws(StorageError) -> Int {
        try write { () throws(StorageError) in
            try connection.withStatement(
                """
                DELETE FROM task_requests
                WHERE lease_owner IS NULL AND (?1 IS NULL OR identifier = ?1) AND (?2 IS NULL OR scope = ?2)
                """
            ) { (statement) throws(StorageError) in
                try statement.bind(1, identifier)
                try statement.bind(2, scope)
                try statement.run()
                return connection.changes
            }
        }
    }

    // MARK: Reading requests

    /// Requests, pending and running, ordered by when they may begin. `nil` matches everything.
    func taskRequests(identifier: String?, scope: String?) throws(StorageError)
        -> [TaskRequestRecord]
    {
        try connection.withStatement(
            """
            SELECT id, identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network,
                submitted_at, attempts, lease_owner, lease_expires_at, claimed_at, last_error
            FROM task_requests
            WHERE (?1 IS NULL OR identifier = ?1) AND (?2 IS NULL OR scope = ?2)
            ORDER BY coalesce(earliest_begin_at, submitted_at), id
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, identifier)
            try statement.bind(2, scope)
            var requests: [TaskRequestRecord] = []
            while try statement.step() {
                guard var request = decodeRequest(statement, from: 0) else { continue }
                request.lastError = statement.optionalString(12)
                requests.append(request)
            }
            return requests
        }
    }

    /// The highest request id so far (0 for none).
    func latestTaskRequestID() throws(StorageError) -> Int64 {
        Int64(try connection.scalarInt("SELECT coalesce(max(id), 0) FROM task_requests"))
    }

    func dueTaskRequestCount(identifiers: [String], scope: String?, at now: Int64, upToRequestID: Int64)
        throws(StorageError) -> Int
    {
        try connection.withStatement(
            """
            SELECT count(*) FROM task_requests
            WHERE lease_owner IS NULL AND coalesce(earliest_begin_at, submitted_at) <= ?3
                AND identifier IN (SELECT value FROM json_each(?1)) AND (?2 IS NULL OR scope = ?2) AND id <= ?4
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, SQLiteDriver.jsonArray(identifiers))
            try statement.bind(2, scope)
            try statement.bind(3, now)
            try statement.bind(4, upToRequestID)
            guard try statement.step() else { return 0 }
            return Int(statement.int64(0))
        }
    }

    /// Users with no request of `identifier` at all, pending or running: the scopes a launch must
    /// start the chain for.
    func usersWithoutTaskRequest(identifier: String, after: String?, limit: Int) throws(StorageError) -> [User] {
        try connection.withStatement(
            """
            SELECT id, time_zone FROM users AS user
            WHERE (?2 IS NULL OR id > ?2)
                AND NOT EXISTS (SELECT 1 FROM task_requests WHERE identifier = ?1 AND scope = user.id)
                AND NOT EXISTS (SELECT 1 FROM discarded_task_requests WHERE identifier = ?1 AND scope = user.id)
            ORDER BY id LIMIT ?3
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, identifier)
            try statement.bind(2, after)
            try statement.bind(3, Int64(min(limit, Int(Int64.max))))
            var users: [User] = []
            while try statement.step() {
                if let user = try decodeUser(statement) { users.append(user) }
            }
            return users
        }
    }

    func heldOrWaitingTaskRequests(
        identifiers: [String], scope: String?, at now: Int64, upToRequestID: Int64, isOnExternalPower: Bool,
        hasNetworkConnectivity: Bool, limit: Int
    ) throws(StorageError) -> [TaskRequestRecord] {
        try connection.withStatement(
            """
            SELECT id, identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network,
                submitted_at, attempts, lease_owner, lease_expires_at, claimed_at
            FROM task_requests
            WHERE identifier IN (SELECT value FROM json_each(?1)) AND (?2 IS NULL OR scope = ?2)
                AND ((lease_owner IS NOT NULL AND lease_expires_at > ?3)
                    OR (lease_owner IS NULL AND coalesce(earliest_begin_at, submitted_at) <= ?3 AND id <= ?4
                        AND ((requires_external_power AND NOT ?5) OR (requires_network AND NOT ?6))))
            ORDER BY id LIMIT ?7
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, SQLiteDriver.jsonArray(identifiers))
            try statement.bind(2, scope)
            try statement.bind(3, now)
            try statement.bind(4, upToRequestID)
            try statement.bind(5, isOnExternalPower)
            try statement.bind(6, hasNetworkConnectivity)
            try statement.bind(7, Int64(min(limit, Int(Int64.max))))
            var requests: [TaskRequestRecord] = []
            while try statement.step() {
                if let request = decodeRequest(statement, from: 0) { requests.append(request) }
            }
            return requests
        }
    }

    // MARK: Claiming and finishing

    /// Claims up to `claim.limit` due requests for `claim.owner` and opens a run for each, in one
    /// transaction.
    ///
    /// Due means: not before `earliest_begin_at`, not leased (or leased by a worker whose lease
    /// expired — it died), its conditions met, its identifier among `claim.identifiers`. The claim
    /// is one `UPDATE … WHERE id IN (SELECT … LIMIT ?) RETURNING` statement that counts the
    /// attempt. A reclaimed request's open run is closed as a failure ("lease expired: worker died")
    /// at the moment its lease expired.
    func claimTaskRequests(_ claim: TaskClaim) throws(StorageError) -> [ClaimedTaskRequest] {
        try write { () throws(StorageError) in
            let now = nowMilliseconds
            // Expired leases first (their workers died), then pending requests in the order they
            // became due; both arms walk an index in that order (migration 0006) and stop at the limit.
            // A claim for one task uses the per-task index, which needs `identifier = ?`, hence two
            // forms of the statement. The indexes are named (`INDEXED BY`): without statistics the
            // planner preferred the plain per-task index and sorted all of a task's requests again.
            let body = { (statement: Statement) throws(StorageError) -> [TaskRequestRecord] in
                try statement.bind(1, claim.owner)
                try statement.bind(2, now)
                try statement.bind(3, Int64((claim.processingLease * 1000).rounded()))
                try statement.bind(4, Int64((claim.refreshLease * 1000).rounded()))
                try statement.bind(5, claim.isOnExternalPower)
                try statement.bind(6, claim.hasNetworkConnectivity)
                if claim.identifiers.count == 1 {
                    try statement.bind(7, claim.identifiers[0])
                } else {
                    try statement.bind(7, SQLiteDriver.jsonArray(claim.identifiers))
                }
                try statement.bind(8, claim.scope)
                try statement.bind(9, claim.limit)
                try statement.bind(10, claim.upToRequestID ?? Int64.max)
                var requests: [TaskRequestRecord] = []
                while try statement.step() {
                    if let request = self.decodeRequest(statement, from: 0) { requests.append(request) }
                }
                return requests
            }
            let claimed =
                if claim.identifiers.count == 1 {
                    try connection.withStatement(
                        """
                        UPDATE task_requests SET
                            lease_owner = ?1,
                            lease_expires_at = ?2 + CASE kind WHEN 'processing' THEN ?3 ELSE ?4 END,
                            claimed_at = ?2,
                            attempts = attempts + 1
                        WHERE id IN (
                            SELECT id FROM (
                                SELECT id FROM task_requests INDEXED BY task_requests_leased
                                WHERE lease_owner IS NOT NULL AND lease_expires_at <= ?2
                                    AND (requires_external_power = 0 OR ?5) AND (requires_network = 0 OR ?6)
                                    AND identifier = ?7 AND (?8 IS NULL OR scope = ?8) AND id <= ?10
                                ORDER BY lease_expires_at, id LIMIT ?9)
                            UNION ALL
                            SELECT id FROM (
                                SELECT id FROM task_requests INDEXED BY task_requests_claimable_by_task
                                WHERE lease_owner IS NULL AND coalesce(earliest_begin_at, submitted_at) <= ?2
                                    AND (requires_external_power = 0 OR ?5) AND (requires_network = 0 OR ?6)
                                    AND identifier = ?7 AND (?8 IS NULL OR scope = ?8) AND id <= ?10
                                ORDER BY coalesce(earliest_begin_at, submitted_at), id LIMIT ?9)
                            LIMIT ?9)
                        RETURNING id, identifier, scope, kind, earliest_begin_at, requires_external_power,
                            requires_network, submitted_at, attempts, lease_owner, lease_expires_at, claimed_at
                        """,
                        body)
                } else {
                    try connection.withStatement(
                        """
                        UPDATE task_requests SET
                            lease_owner = ?1,
                            lease_expires_at = ?2 + CASE kind WHEN 'processing' THEN ?3 ELSE ?4 END,
                            claimed_at = ?2,
                            attempts = attempts + 1
                        WHERE id IN (
                            SELECT id FROM (
                                SELECT id FROM task_requests INDEXED BY task_requests_leased
                                WHERE lease_owner IS NOT NULL AND lease_expires_at <= ?2
                                    AND (requires_external_power = 0 OR ?5) AND (requires_network = 0 OR ?6)
                                    AND identifier IN (SELECT value FROM json_each(?7))
                            AND (?8 IS NULL OR scope = ?8) AND id <= ?10
                                ORDER BY lease_expires_at, id LIMIT ?9)
                            UNION ALL
                            SELECT id FROM (
                                SELECT id FROM task_requests INDEXED BY task_requests_claimable
                                WHERE lease_owner IS NULL AND coalesce(earliest_begin_at, submitted_at) <= ?2
                                    AND (requires_external_power = 0 OR ?5) AND (requires_network = 0 OR ?6)
                                    AND identifier IN (SELECT value FROM json_each(?7))
                            AND (?8 IS NULL OR scope = ?8) AND id <= ?10
                                ORDER BY coalesce(earliest_begin_at, submitted_at), id LIMIT ?9)
                            LIMIT ?9)
                        RETURNING id, identifier, scope, kind, earliest_begin_at, requires_external_power,
                            requires_network, submitted_at, attempts, lease_owner, lease_expires_at, claimed_at
                        """,
                        body)
                }
            var result: [ClaimedTaskRequest] = []
            for request in claimed.sorted(by: {
                ($0.earliestBeginAt ?? $0.submittedAt, $0.id) < ($1.earliestBeginAt ?? $1.submittedAt, $1.id)
            }) {
                let deadWorker = try closeAbandonedRun(of: request)
                let runID = try openRun(for: request)
                result.append(ClaimedTaskRequest(request: request, runID: runID, abandonedBy: deadWorker))
            }
            return result
        }
    }

    /// Closes the run a dead worker left open for `request`, if any; returns that worker.
    private func closeAbandonedRun(of request: TaskRequestRecord) throws(StorageError) -> String? {
        try connection.withStatement(
            """
            UPDATE task_runs SET finished_at = lease_expires_at, outcome = 'failure',
                reason = 'lease expired: worker died',
                successor_pending = EXISTS (
                    SELECT 1 FROM task_requests WHERE identifier = ?2 AND scope = ?3 AND lease_owner IS NULL)
            WHERE request_id = ?1 AND finished_at IS NULL
            RETURNING worker
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, request.id)
            try statement.bind(2, request.identifier)
            try statement.bind(3, request.scope)
            var worker: String?
            while try statement.step() { worker = statement.string(0) }
            return worker
        }
    }

    private func openRun(for request: TaskRequestRecord) throws(StorageError) -> Int64 {
        try connection.withStatement(
            """
            INSERT INTO task_runs (request_id, identifier, scope, kind, attempt, worker, started_at, lease_expires_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, request.id)
            try statement.bind(2, request.identifier)
            try statement.bind(3, request.scope)
            try statement.bind(4, request.kind.rawValue)
            try statement.bind(5, request.attempts)
            try statement.bind(6, request.leaseOwner)
            try statement.bind(7, request.claimedAt.map(Store.milliseconds))
            try statement.bind(8, request.leaseExpiresAt.map(Store.milliseconds))
            try statement.run()
            return connection.lastInsertedRowID
        }
    }

    /// Records how a run ended and settles its request, in one transaction — but only while the
    /// worker still holds the lease; otherwise nothing changes and the result is `.leaseLost`
    /// (another worker reclaimed the request and already closed this run).
    ///
    /// A successful run deletes its request. An unsuccessful one is retried at `retryAt`: when a
    /// successor is already pending (the handler submitted it first thing), that successor is moved
    /// up to `retryAt` if it is due later and inherits the attempt count, so there is still one
    /// pending request per identifier and scope; otherwise the request itself becomes pending again.
    func finishTaskRuns(_ completions: [TaskRunCompletion], releasing: [TaskClaimRelease]) throws(StorageError)
        -> [TaskRunFinish]
    {
        try write { () throws(StorageError) in
            var finishes: [TaskRunFinish] = []
            finishes.reserveCapacity(completions.count)
            for completion in completions { finishes.append(try settle(completion)) }
            for claim in releasing { try release(claim) }
            return finishes
        }
    }

    /// The request `owner` leases: its identifier, scope and attempts; `nil` when the lease is not theirs.
    private func leasedRequest(_ id: Int64, owner: String) throws(StorageError)
        -> (identifier: String, scope: String, attempts: Int)?
    {
        try connection.withStatement(
            "SELECT identifier, scope, attempts FROM task_requests WHERE id = ?1 AND lease_owner = ?2"
        ) { (statement) throws(StorageError) -> (identifier: String, scope: String, attempts: Int)? in
            try statement.bind(1, id)
            try statement.bind(2, owner)
            return try statement.step() ? (statement.string(0), statement.string(1), statement.int(2)) : nil
        }
    }

    /// One run of `finishTaskRuns`, inside its transaction.
    private func settle(_ completion: TaskRunCompletion) throws(StorageError) -> TaskRunFinish {
        guard let held = try leasedRequest(completion.requestID, owner: completion.owner) else { return .leaseLost }
        for write in completion.writes {
            switch write {
            case .submit(let request): _ = try insert(request, replacing: true)
            case .save(let model): _ = try insertModel(model)
            }
        }
        let successorPending = try pendingRequestExists(identifier: held.identifier, scope: held.scope)
        if completion.discard {
            try discardRequest(completion.requestID, error: completion.reason, cause: "attempts")
        } else if let retryAt = completion.retryAt.map(Store.milliseconds) {
            if successorPending {
                try connection.withStatement(
                    """
                    UPDATE task_requests SET
                        earliest_begin_at = CASE WHEN earliest_begin_at IS NULL OR earliest_begin_at <= ?3
                            THEN earliest_begin_at ELSE ?3 END,
                        attempts = max(attempts, ?4), last_error = ?5
                    WHERE identifier = ?1 AND scope = ?2 AND lease_owner IS NULL
                    """
                ) { (statement) throws(StorageError) in
                    try statement.bind(1, held.identifier)
                    try statement.bind(2, held.scope)
                    try statement.bind(3, retryAt)
                    try statement.bind(4, held.attempts)
                    try statement.bind(5, completion.reason)
                    try statement.run()
                }
                try deleteRequest(completion.requestID)
            } else {
                try connection.withStatement(
                    """
                    UPDATE task_requests SET lease_owner = NULL, lease_expires_at = NULL, claimed_at = NULL,
                        earliest_begin_at = ?2, last_error = ?3
                    WHERE id = ?1
                    """
                ) { (statement) throws(StorageError) in
                    try statement.bind(1, completion.requestID)
                    try statement.bind(2, retryAt)
                    try statement.bind(3, completion.reason)
                    try statement.run()
                }
            }
        } else {
            try deleteRequest(completion.requestID)
        }
        try connection.withStatement(
            """
            UPDATE task_runs SET finished_at = ?2, outcome = ?3, reason = ?4, successor_pending = ?5, periods = ?6
            WHERE id = ?1 AND finished_at IS NULL
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, completion.runID)
            try statement.bind(2, nowMilliseconds)
            try statement.bind(3, completion.outcome.rawValue)
            try statement.bind(4, completion.reason)
            try statement.bind(5, successorPending)
            try statement.bind(6, completion.periods)
            try statement.run()
        }
        return .recorded(successorPending: successorPending)
    }

    /// Gives back a claim never run (`TaskClaimRelease`), inside `finishTaskRuns`' transaction.
    private func release(_ claim: TaskClaimRelease) throws(StorageError) {
        guard let held = try leasedRequest(claim.requestID, owner: claim.owner) else { return }
        if try pendingRequestExists(identifier: held.identifier, scope: held.scope) {
            try deleteRequest(claim.requestID)
        } else {
            try connection.withStatement(
                """
                UPDATE task_requests SET lease_owner = NULL, lease_expires_at = NULL, claimed_at = NULL,
                    attempts = max(0, attempts - 1)
                WHERE id = ?1
                """
            ) { (statement) throws(StorageError) in
                try statement.bind(1, claim.requestID)
                try statement.run()
            }
        }
        try connection.withStatement("DELETE FROM task_runs WHERE id = ?1 AND finished_at IS NULL") {
            (statement) throws(StorageError) in
            try statement.bind(1, claim.runID)
            try statement.run()
        }
    }

    private func pendingRequestExists(identifier: String, scope: String) throws(StorageError) -> Bool {
        try connection.withStatement(
            "SELECT EXISTS (SELECT 1 FROM task_requests WHERE identifier = ?1 AND scope = ?2 AND lease_owner IS NULL)"
        ) { (statement) throws(StorageError) in
            try statement.bind(1, identifier)
            try statement.bind(2, scope)
            return try statement.step() && statement.int(0) == 1
        }
    }

    private func deleteRequest(_ id: Int64) throws(StorageError) {
        try connection.withStatement("DELETE FROM task_requests WHERE id = ?1") { (statement) throws(StorageError) in
            try statement.bind(1, id)
            try statement.run()
        }
    }

    // MARK: History and status

    /// Runs, oldest first. `nil` matches everything; `limit` keeps the most recent ones. Runs still
    /// in progress are included only with `includeUnfinished`.
    func taskRuns(identifier: String?, scope: String?, limit: Int?, includeUnfinished: Bool) throws(StorageError)
        -> [TaskRunRecord]
    {
        try connection.withStatement(
            """
            SELECT * FROM (
                SELECT id, request_id, identifier, scope, kind, attempt, worker, started_at, lease_expires_at,
                    finished_at, outcome, reason, successor_pending, periods
                FROM task_runs
                WHERE (?1 IS NULL OR identifier = ?1) AND (?2 IS NULL OR scope = ?2) AND (?3 OR finished_at IS NOT NULL)
                ORDER BY id DESC LIMIT ?4)
            ORDER BY id
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, identifier)
            try statement.bind(2, scope)
            try statement.bind(3, includeUnfinished)
            try statement.bind(4, limit ?? -1)
            var runs: [TaskRunRecord] = []
            while try statement.step() {
                if let run = decodeRun(statement) { runs.append(run) }
            }
            return runs
        }
    }

    /// The latest finished run of each identifier and scope that succeeded without leaving a
    /// successor pending: a handler that did not reschedule itself (DESIGN §8, bug 10).
    func brokenTaskChains() throws(StorageError) -> [TaskRunRecord] {
        try connection.withStatement(
            """
            SELECT run.id, run.request_id, run.identifier, run.scope, run.kind, run.attempt, run.worker,
                run.started_at, run.lease_expires_at, run.finished_at, run.outcome, run.reason, run.successor_pending,
                run.periods
            FROM task_runs AS run
            JOIN (SELECT max(id) AS id FROM task_runs WHERE finished_at IS NOT NULL GROUP BY identifier, scope) AS last
                ON last.id = run.id
            WHERE run.outcome = 'success' AND run.successor_pending = 0
            ORDER BY run.identifier, run.scope
            """
        ) { (statement) throws(StorageError) in
            var runs: [TaskRunRecord] = []
            while try statement.step() {
                if let run = decodeRun(statement) { runs.append(run) }
            }
            return runs
        }
    }

    /// Scopes that never had a request of `identifier` and never ran it: every user for a per-user
    /// task, or `""` for a global one. A launch starts these chains; a database that only ever saw
    /// ingestion has them all (DESIGN §8, bug 1).
    func scopesNeverSubmitted(identifier: String, perUser: Bool) throws(StorageError) -> [String] {
        let sql: StaticString =
            perUser
            ? """
            SELECT id FROM users AS user
            WHERE NOT EXISTS (SELECT 1 FROM task_requests WHERE identifier = ?1 AND scope = user.id)
                AND NOT EXISTS (SELECT 1 FROM task_runs WHERE identifier = ?1 AND scope = user.id)
                AND NOT EXISTS (SELECT 1 FROM discarded_task_requests WHERE identifier = ?1 AND scope = user.id)
            ORDER BY id
            """
            : """
            SELECT '' WHERE NOT EXISTS (SELECT 1 FROM task_requests WHERE identifier = ?1 AND scope = '')
                AND NOT EXISTS (SELECT 1 FROM task_runs WHERE identifier = ?1 AND scope = '')
                AND NOT EXISTS (SELECT 1 FROM discarded_task_requests WHERE identifier = ?1 AND scope = '')
            """
        return try connection.withStatement(sql) { (statement) throws(StorageError) in
            try statement.bind(1, identifier)
            var scopes: [String] = []
            while try statement.step() { scopes.append(statement.string(0)) }
            return scopes
        }
    }

    /// Requests whose lease expired at least `refreshAge` (refresh) or `processingAge` (processing)
    /// seconds ago and that no launch has reclaimed since: nothing is running them.
    func staleTaskLeases(refreshAge: TimeInterval, processingAge: TimeInterval) throws(StorageError)
        -> [TaskRequestRecord]
    {
        try connection.withStatement(
            """
            SELECT id, identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network,
                submitted_at, attempts, lease_owner, lease_expires_at, claimed_at
            FROM task_requests
            WHERE lease_owner IS NOT NULL AND lease_expires_at <= ?1 - CASE kind WHEN 'processing' THEN ?2 ELSE ?3 END
            ORDER BY lease_expires_at, id
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, nowMilliseconds)
            try statement.bind(2, Int64((processingAge * 1000).rounded()))
            try statement.bind(3, Int64((refreshAge * 1000).rounded()))
            var requests: [TaskRequestRecord] = []
            while try statement.step() {
                if let request = decodeRequest(statement, from: 0) { requests.append(request) }
            }
            return requests
        }
    }

    /// Counts of requests by identifier, as of the store's clock.
    func taskRequestCounts() throws(StorageError) -> [String: TaskRequestCounts] {
        try connection.withStatement(
            """
            SELECT identifier,
                sum(lease_owner IS NULL),
                sum(lease_owner IS NULL AND (earliest_begin_at IS NULL OR earliest_begin_at <= ?1)),
                sum(lease_owner IS NOT NULL AND lease_expires_at > ?1),
                sum(lease_owner IS NOT NULL AND lease_expires_at <= ?1)
            FROM task_requests GROUP BY identifier
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, nowMilliseconds)
            var counts: [String: TaskRequestCounts] = [:]
            while try statement.step() {
                counts[statement.string(0)] = TaskRequestCounts(
                    pending: statement.int(1), due: statement.int(2), running: statement.int(3),
                    abandoned: statement.int(4))
            }
            return counts
        }
    }

    /// Totals over the whole run history by identifier and outcome, for metrics and status.
    func taskRunTotals() throws(StorageError) -> [TaskRunTotal] {
        try connection.withStatement(
            """
            SELECT identifier, outcome, count(*), sum(finished_at - started_at), max(finished_at)
            FROM task_runs WHERE finished_at IS NOT NULL
            GROUP BY identifier, outcome ORDER BY identifier, outcome
            """
        ) { (statement) throws(StorageError) in
            var totals: [TaskRunTotal] = []
            while try statement.step() {
                guard let outcome = TaskRunOutcome(rawValue: statement.string(1)) else { continue }
                totals.append(
                    TaskRunTotal(
                        identifier: statement.string(0), outcome: outcome, runs: statement.int(2),
                        totalDuration: Double(statement.int64(3)) / 1000,
                        lastFinishedAt: Store.date(milliseconds: statement.int64(4))))
            }
            return totals
        }
    }

    // MARK: Decoding

    /// Reads a row whose columns start at `column` in this order: id, identifier, scope, kind,
    /// earliest_begin_at, requires_external_power, requires_network, submitted_at, attempts,
    /// lease_owner, lease_expires_at, claimed_at.
    func decodeRequest(_ statement: Statement, from column: Int32) -> TaskRequestRecord? {
        guard let kind = TaskRequestKind(rawValue: statement.string(column + 3)) else { return nil }
        func date(_ offset: Int32) -> Date? {
            statement.isNull(column + offset) ? nil : Store.date(milliseconds: statement.int64(column + offset))
        }
        return TaskRequestRecord(
            id: statement.int64(column), identifier: statement.string(column + 1), scope: statement.string(column + 2),
            kind: kind, earliestBeginAt: date(4), requiresExternalPower: statement.int(column + 5) == 1,
            requiresNetwork: statement.int(column + 6) == 1,
            submittedAt: Store.date(milliseconds: statement.int64(column + 7)), attempts: statement.int(column + 8),
            leaseOwner: statement.optionalString(column + 9), leaseExpiresAt: date(10), claimedAt: date(11))
    }

    private func decodeRun(_ statement: Statement) -> TaskRunRecord? {
        guard let kind = TaskRequestKind(rawValue: statement.string(4)) else { return nil }
        return TaskRunRecord(
            id: statement.int64(0), requestID: statement.int64(1), identifier: statement.string(2),
            scope: statement.string(3), kind: kind, attempt: statement.int(5), worker: statement.string(6),
            startedAt: Store.date(milliseconds: statement.int64(7)),
            leaseExpiresAt: Store.date(milliseconds: statement.int64(8)),
            finishedAt: statement.isNull(9) ? nil : Store.date(milliseconds: statement.int64(9)),
            outcome: statement.optionalString(10).flatMap(TaskRunOutcome.init(rawValue:)),
            reason: statement.optionalString(11), successorPending: statement.optionalInt(12).map { $0 == 1 },
            periods: statement.optionalInt(13))
    }

    /// A JSON array of strings, for `IN (SELECT value FROM json_each(?))`: a list bound as one
    /// parameter, so the statement text stays constant and cached.
    static func jsonArray(_ values: [String]) -> String {
        JSONValue.array(values.map(JSONValue.string)).jsonText
    }
}
