import Domain
import Foundation

/// The scheduler's persistence on PostgreSQL (see `Store+Scheduler.swift`), for workers on many
/// hosts with the database as the only coordinator.
///
/// - A claim is one `UPDATE … RETURNING` over rows its subqueries take `FOR UPDATE SKIP LOCKED`: a
///   row another worker is claiming is skipped, not waited for, and a row it has claimed no longer
///   matches when re-checked, so no request is handed to two workers.
///   https://www.postgresql.org/docs/15/sql-select.html#SQL-FOR-UPDATE-SHARE
/// - Submitting is one upsert against the partial unique index of pending requests, as on SQLite;
///   a `.keep` insert is then withdrawn if the chain has another request by now (see `insert`).
/// - A finish locks the request it settles (`FOR UPDATE`), so it and a reclaim cannot both win.
extension PostgreSQLDriver {
    // MARK: Submitting

    func submit(_ requests: [NewTaskRequest], replacing: Bool) throws(StorageError) -> Int {
        guard !requests.isEmpty else { return 0 }
        return try write { () throws(StorageError) in
            if !replacing && requests.count > 1 { return try insertNew(requests) }
            var stored = 0
            for request in requests where try insert(request, replacing: replacing) {
                stored += 1
            }
            return stored
        }
    }

    /// `insert(_:replacing: false)` for many requests in two statements instead of two per request
    /// (a launch starting every user's chains): one inserts, in order, each request whose chain has no
    /// request and was never discarded (a second request of one chain in `requests` conflicts with the
    /// first and is skipped); the other withdraws each inserted row whose chain another transaction
    /// has given a request meanwhile, for the reason `insert` gives. The rows of one call belong to
    /// different chains, so the withdrawal never counts one of them against another.
    private func insertNew(_ requests: [NewTaskRequest]) throws(StorageError) -> Int {
        // As `insert`'s parameters, each an array, except $7 (submitted_at), the same for all.
        var columns = PostgreSQLDriver.arrayColumns(requests.map(parameters(of:)))
        columns[6] = .pg(nowMilliseconds)
        let inserted = try connection.query(
            """
            INSERT INTO task_requests (
                identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network, submitted_at)
            SELECT s.identifier, s.scope, s.kind, s.earliest_begin_at, s.requires_external_power, s.requires_network,
                $7::bigint
            FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::boolean[], $6::boolean[])
                WITH ORDINALITY AS s (
                    identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network, position)
            WHERE NOT EXISTS (SELECT 1 FROM task_requests t WHERE t.identifier = s.identifier AND t.scope = s.scope)
                AND NOT EXISTS (
                    SELECT 1 FROM discarded_task_requests d WHERE d.identifier = s.identifier AND d.scope = s.scope)
            ORDER BY s.position
            ON CONFLICT (identifier, scope) WHERE lease_owner IS NULL DO NOTHING
            RETURNING id
            """, columns)
        guard inserted.count > 0 else { return 0 }
        let ids = (0..<inserted.count).map { String(inserted.int64($0, 0)) }
        let withdrawn = try connection.query(
            """
            DELETE FROM task_requests r
            WHERE r.id = ANY($1::bigint[]) AND EXISTS (
                SELECT 1 FROM task_requests o WHERE o.identifier = r.identifier AND o.scope = r.scope AND o.id <> r.id)
            """, [PostgreSQLDriver.arrayLiteral(ids)]
        ).affected
        return inserted.count - withdrawn
    }

    /// `insert`'s parameters: $1 identifier, $2 scope, $3 kind, $4 earliest_begin_at,
    /// $5 requires_external_power, $6 requires_network, $7 submitted_at.
    private func parameters(of request: NewTaskRequest) -> [String?] {
        [
            request.identifier, request.scope, request.kind.rawValue,
            .pg(request.earliestBeginAt.map(Store.milliseconds)),
            .pg(request.requiresExternalPower), .pg(request.requiresNetwork), .pg(nowMilliseconds),
        ]
    }

    private func insert(_ request: NewTaskRequest, replacing: Bool) throws(StorageError) -> Bool {
        let parameters = parameters(of: request)
        if replacing {
            return try connection.query(
                """
                INSERT INTO task_requests (
                    identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network, submitted_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                ON CONFLICT (identifier, scope) WHERE lease_owner IS NULL DO UPDATE SET
                    kind = excluded.kind, earliest_begin_at = excluded.earliest_begin_at,
                    requires_external_power = excluded.requires_external_power,
                    requires_network = excluded.requires_network, submitted_at = excluded.submitted_at, attempts = 0
                """, parameters
            ).affected == 1
        }
        let inserted = try connection.query(
            """
            INSERT INTO task_requests (
                identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network, submitted_at)
            SELECT $1::text, $2::text, $3::text, $4::bigint, $5::boolean, $6::boolean, $7::bigint
            WHERE NOT EXISTS (SELECT 1 FROM task_requests WHERE identifier = $1::text AND scope = $2::text)
                AND NOT EXISTS (
                    SELECT 1 FROM discarded_task_requests WHERE identifier = $1::text AND scope = $2::text)
            ON CONFLICT (identifier, scope) WHERE lease_owner IS NULL DO NOTHING
            RETURNING id
            """, parameters)
        guard inserted.count == 1 else { return false }
        // The NOT EXISTS above reads the snapshot its statement started with, and the unique index
        // covers pending requests only: a request another launch inserted and a worker claimed
        // meanwhile is in neither, so the insert can succeed next to it — a second request of one
        // chain, due at once, that a worker would run again. A new statement sees every commit up to
        // now, and that request is among them (its handler cannot submit a successor, and so cannot
        // finish, before this transaction ends: the successor's insert waits on this row). So the row
        // is withdrawn if any other request of the chain exists.
        let withdrawn = try connection.query(
            """
            DELETE FROM task_requests
            WHERE id = $1 AND EXISTS (
                SELECT 1 FROM task_requests WHERE identifier = $2 AND scope = $3 AND id <> $1)
            """, [.pg(inserted.int64(0, 0)), request.identifier, request.scope]
        ).affected
        return withdrawn == 0
    }

    func makeTaskRequestsDue(identifiers: [String], scope: String?) throws(StorageError) -> Int {
        try write { () throws(StorageError) in
            try connection.query(
                """
                UPDATE task_requests SET earliest_begin_at = $1
                WHERE lease_owner IS NULL AND earliest_begin_at > $1
                    AND identifier = ANY($2::text[]) AND ($3::text IS NULL OR scope = $3::text)
                """, [.pg(nowMilliseconds), PostgreSQLDriver.arrayLiteral(identifiers), scope]
            ).affected
        }
    }

    func cancelTaskRequests(identifier: String?, scope: String?) throws(StorageError) -> Int {
        try write { () throws(StorageError) in
            try connection.query(
                """
                DELETE FROM task_requests
                WHERE lease_owner IS NULL AND ($1::text IS NULL OR identifier = $1::text)
                    AND ($2::text IS NULL OR scope = $2::text)
                """, [identifier, scope]
            ).affected
        }
    }

    // MARK: Reading requests

    func taskRequests(identifier: String?, scope: String?) throws(StorageError) -> [TaskRequestRecord] {
        let rows = try connection.query(
            """
            SELECT id, identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network,
                submitted_at, attempts, lease_owner, lease_expires_at, claimed_at, last_error
            FROM task_requests
            WHERE ($1::text IS NULL OR identifier = $1::text) AND ($2::text IS NULL OR scope = $2::text)
            ORDER BY coalesce(earliest_begin_at, submitted_at), id
            """, [identifier, scope])
        return (0..<rows.count).compactMap { row in
            guard var request = decodeRequest(rows, row) else { return nil }
            request.lastError = rows.optionalString(row, 12)
            return request
        }
    }

    func latestTaskRequestID() throws(StorageError) -> Int64 {
        // The sequence, not max(id): a request that succeeded is deleted, and ids are never reused.
        try connection.query(
            """
            SELECT greatest(coalesce((SELECT max(id) FROM task_requests), 0),
                coalesce((SELECT last_value FROM task_requests_id_seq WHERE is_called), 0))
            """
        ).int64(0, 0)
    }

    func usersWithoutTaskRequest(identifier: String, after: String?, limit: Int) throws(StorageError) -> [User] {
        let rows = try connection.query(
            """
            SELECT id, time_zone FROM users AS u
            WHERE ($2::text IS NULL OR id > $2::text)
                AND NOT EXISTS (SELECT 1 FROM task_requests WHERE identifier = $1 AND scope = u.id)
                AND NOT EXISTS (SELECT 1 FROM discarded_task_requests WHERE identifier = $1 AND scope = u.id)
            ORDER BY id LIMIT $3
            """, [identifier, after, .pg(Int64(min(limit, Int(Int64.max))))])
        return try decodeUsers(rows)
    }

    func dueTaskRequestCount(identifiers: [String], scope: String?, at now: Int64, upToRequestID: Int64)
        throws(StorageError) -> Int
    {
        try connection.query(
            """
            SELECT count(*) FROM task_requests
            WHERE lease_owner IS NULL AND coalesce(earliest_begin_at, submitted_at) <= $3::bigint
                AND identifier = ANY($1::text[]) AND ($2::text IS NULL OR scope = $2::text) AND id <= $4::bigint
            """,
            [PostgreSQLDriver.arrayLiteral(identifiers), scope, .pg(now), .pg(upToRequestID)]
        ).int(0, 0)
    }

    func heldOrWaitingTaskRequests(
        identifiers: [String], scope: String?, at now: Int64, upToRequestID: Int64, isOnExternalPower: Bool,
        hasNetworkConnectivity: Bool, limit: Int
    ) throws(StorageError) -> [TaskRequestRecord] {
        let rows = try connection.query(
            """
            SELECT id, identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network,
                submitted_at, attempts, lease_owner, lease_expires_at, claimed_at
            FROM task_requests
            WHERE identifier = ANY($1::text[]) AND ($2::text IS NULL OR scope = $2::text)
                AND ((lease_owner IS NOT NULL AND lease_expires_at > $3::bigint)
                    OR (lease_owner IS NULL AND coalesce(earliest_begin_at, submitted_at) <= $3::bigint
                        AND id <= $4::bigint
                        AND ((requires_external_power AND NOT $5::boolean) OR (requires_network AND NOT $6::boolean))))
            ORDER BY id LIMIT $7
            """,
            [
                PostgreSQLDriver.arrayLiteral(identifiers), scope, .pg(now), .pg(upToRequestID), .pg(isOnExternalPower),
                .pg(hasNetworkConnectivity), .pg(Int64(min(limit, Int(Int64.max)))),
            ])
        return (0..<rows.count).compactMap { decodeRequest(rows, $0) }
    }

    // MARK: Claiming and finishing

    func claimTaskRequests(_ claim: TaskClaim) throws(StorageError) -> [ClaimedTaskRequest] {
        try write { () throws(StorageError) in
            // Expired leases first (their workers died), then pending requests in the order they
            // became due; each arm walks an index in that order (migration 0006), skips rows another
            // worker holds, and stops at the limit. (A locking clause cannot sit under UNION, so each
            // arm is a CTE of its own.)
            let rows = try connection.query(
                """
                WITH expired AS (
                    SELECT id FROM task_requests
                    WHERE lease_owner IS NOT NULL AND lease_expires_at <= $2::bigint
                        AND (NOT requires_external_power OR $5::boolean) AND (NOT requires_network OR $6::boolean)
                        AND identifier = ANY($7::text[]) AND ($8::text IS NULL OR scope = $8::text)
                        AND id <= $10::bigint
                    ORDER BY lease_expires_at, id LIMIT $9::bigint
                    FOR UPDATE SKIP LOCKED),
                pending AS (
                    SELECT id FROM task_requests
                    WHERE lease_owner IS NULL AND coalesce(earliest_begin_at, submitted_at) <= $2::bigint
                        AND (NOT requires_external_power OR $5::boolean) AND (NOT requires_network OR $6::boolean)
                        AND identifier = ANY($7::text[]) AND ($8::text IS NULL OR scope = $8::text)
                        AND id <= $10::bigint
                    ORDER BY coalesce(earliest_begin_at, submitted_at), id LIMIT $9::bigint
                    FOR UPDATE SKIP LOCKED)
                UPDATE task_requests SET
                    lease_owner = $1,
                    lease_expires_at = $2::bigint + CASE kind WHEN 'processing' THEN $3::bigint ELSE $4::bigint END,
                    claimed_at = $2::bigint,
                    attempts = attempts + 1
                WHERE id IN (
                    SELECT id FROM (SELECT id FROM expired UNION ALL SELECT id FROM pending) AS due LIMIT $9::bigint)
                RETURNING id, identifier, scope, kind, earliest_begin_at, requires_external_power,
                    requires_network, submitted_at, attempts, lease_owner, lease_expires_at, claimed_at
                """,
                [
                    claim.owner, .pg(nowMilliseconds), .pg(Int64((claim.processingLease * 1000).rounded())),
                    .pg(Int64((claim.refreshLease * 1000).rounded())), .pg(claim.isOnExternalPower),
                    .pg(claim.hasNetworkConnectivity), PostgreSQLDriver.arrayLiteral(claim.identifiers), claim.scope,
                    .pg(claim.limit), .pg(claim.upToRequestID ?? Int64.max),
                ])
            let claimed = (0..<rows.count).compactMap { decodeRequest(rows, $0) }.sorted {
                ($0.earliestBeginAt ?? $0.submittedAt, $0.id) < ($1.earliestBeginAt ?? $1.submittedAt, $1.id)
            }
            guard !claimed.isEmpty else { return [] }
            let deadWorkers = try closeAbandonedRuns(of: claimed)
            let runIDs = try openRuns(for: claimed)
            return claimed.map { request in
                guard let runID = runIDs[request.id] else { preconditionFailure("a claimed request without its run") }
                return ClaimedTaskRequest(request: request, runID: runID, abandonedBy: deadWorkers[request.id])
            }
        }
    }

    /// Closes the runs dead workers left open for the claimed requests, in one statement; returns
    /// those workers by request. A run's identifier and scope are its request's.
    private func closeAbandonedRuns(of requests: [TaskRequestRecord]) throws(StorageError) -> [Int64: String] {
        let rows = try connection.query(
            """
            UPDATE task_runs r SET finished_at = r.lease_expires_at, outcome = 'failure',
                reason = 'lease expired: worker died',
                successor_pending = EXISTS (
                    SELECT 1 FROM task_requests t
                    WHERE t.identifier = r.identifier AND t.scope = r.scope AND t.lease_owner IS NULL)
            WHERE r.request_id = ANY($1::bigint[]) AND r.finished_at IS NULL
            RETURNING r.request_id, r.worker
            """, [PostgreSQLDriver.arrayLiteral(requests.map { .pg($0.id) })])
        var workers: [Int64: String] = [:]
        for row in 0..<rows.count { workers[rows.int64(row, 0)] = rows.string(row, 1) }
        return workers
    }

    /// Opens a run for each claimed request, in their order, in one statement; returns the runs'
    /// ids by request.
    private func openRuns(for requests: [TaskRequestRecord]) throws(StorageError) -> [Int64: Int64] {
        let runs = requests.map { request -> [String?] in
            [
                .pg(request.id), request.identifier, request.scope, request.kind.rawValue, .pg(request.attempts),
                request.leaseOwner, .pg(request.claimedAt.map(Store.milliseconds)),
                .pg(request.leaseExpiresAt.map(Store.milliseconds)),
            ]
        }
        let rows = try connection.query(
            """
            INSERT INTO task_runs (request_id, identifier, scope, kind, attempt, worker, started_at, lease_expires_at)
            SELECT request_id, identifier, scope, kind, attempt, worker, started_at, lease_expires_at
            FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::integer[], $6::text[], $7::bigint[],
                $8::bigint[]) WITH ORDINALITY
                AS claimed (request_id, identifier, scope, kind, attempt, worker, started_at, lease_expires_at, position)
            ORDER BY position
            RETURNING id, request_id
            """, PostgreSQLDriver.arrayColumns(runs))
        var ids: [Int64: Int64] = [:]
        for row in 0..<rows.count { ids[rows.int64(row, 1)] = rows.int64(row, 0) }
        return ids
    }

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

    /// The request `owner` leases, locked: a claim reclaiming it (its lease expired) skips it until
    /// the transaction commits, and then sees it settled. `nil` when the lease is not theirs.
    private func lockLeasedRequest(_ id: Int64, owner: String) throws(StorageError)
        -> (identifier: String, scope: String, attempts: Int)?
    {
        let held = try connection.query(
            "SELECT identifier, scope, attempts FROM task_requests WHERE id = $1 AND lease_owner = $2 FOR UPDATE",
            [.pg(id), owner])
        return held.count == 1 ? (held.string(0, 0), held.string(0, 1), held.int(0, 2)) : nil
    }

    private func pendingRequestExists(identifier: String, scope: String) throws(StorageError) -> Bool {
        try connection.query(
            "SELECT EXISTS (SELECT 1 FROM task_requests WHERE identifier = $1 AND scope = $2 AND lease_owner IS NULL)",
            [identifier, scope]
        ).bool(0, 0)
    }

    /// One run of `finishTaskRuns`, inside its transaction.
    private func settle(_ completion: TaskRunCompletion) throws(StorageError) -> TaskRunFinish {
        guard let (identifier, scope, attempts) = try lockLeasedRequest(completion.requestID, owner: completion.owner)
        else { return .leaseLost }
        for write in completion.writes {
            switch write {
            case .submit(let request): _ = try insert(request, replacing: true)
            case .save(let model): _ = try insertModel(model)
            }
        }
        guard completion.discard || completion.retryAt != nil else {
            // The common end, in one statement: the request leaves the queue, and the run records
            // whether a successor waits — one submitted by this run's writes above included (an
            // earlier statement of the transaction); the request itself is leased, so never counted.
            let finished = try connection.query(
                """
                WITH removed AS (DELETE FROM task_requests WHERE id = $6)
                UPDATE task_runs SET finished_at = $2, outcome = $3, reason = $4, periods = $5,
                    successor_pending = EXISTS (
                        SELECT 1 FROM task_requests WHERE identifier = $7 AND scope = $8 AND lease_owner IS NULL)
                WHERE id = $1 AND finished_at IS NULL
                RETURNING successor_pending
                """,
                [
                    .pg(completion.runID), .pg(nowMilliseconds), completion.outcome.rawValue, completion.reason,
                    .pg(completion.periods), .pg(completion.requestID), identifier, scope,
                ])
            let successorPending =
                finished.count == 1 ? finished.bool(0, 0) : try pendingRequestExists(identifier: identifier, scope: scope)
            return .recorded(successorPending: successorPending)
        }
        var successorPending = try pendingRequestExists(identifier: identifier, scope: scope)
        if completion.discard {
            try discardRequest(completion.requestID, error: completion.reason, cause: "attempts")
        } else if let retryAt = completion.retryAt.map(Store.milliseconds) {
            if !successorPending {
                // The request itself waits again. A submit on another host may have made a
                // successor pending since the check: the unique index refuses a second pending
                // request, and the successor takes the retry instead.
                try connection.execute("SAVEPOINT retry")
                do throws(StorageError) {
                    try connection.query(
                        """
                        UPDATE task_requests SET lease_owner = NULL, lease_expires_at = NULL, claimed_at = NULL,
                            earliest_begin_at = $2, last_error = $3
                        WHERE id = $1
                        """, [.pg(completion.requestID), .pg(retryAt), completion.reason])
                    try connection.execute("RELEASE SAVEPOINT retry")
                } catch .postgresql("23505", _, _) {
                    try connection.execute("ROLLBACK TO SAVEPOINT retry")
                    successorPending = true
                }
            }
            if successorPending {
                try connection.query(
                    """
                    UPDATE task_requests SET
                        earliest_begin_at = CASE WHEN earliest_begin_at IS NULL OR earliest_begin_at <= $3
                            THEN earliest_begin_at ELSE $3 END,
                        attempts = greatest(attempts, $4), last_error = $5
                    WHERE identifier = $1 AND scope = $2 AND lease_owner IS NULL
                    """, [identifier, scope, .pg(retryAt), .pg(attempts), completion.reason])
                try deleteRequest(completion.requestID)
            }
        }
        try connection.query(
            """
            UPDATE task_runs SET finished_at = $2, outcome = $3, reason = $4, successor_pending = $5, periods = $6
            WHERE id = $1 AND finished_at IS NULL
            """,
            [
                .pg(completion.runID), .pg(nowMilliseconds), completion.outcome.rawValue, completion.reason,
                .pg(successorPending), .pg(completion.periods),
            ])
        return .recorded(successorPending: successorPending)
    }

    /// Gives back a claim never run (`TaskClaimRelease`), inside `finishTaskRuns`' transaction.
    private func release(_ claim: TaskClaimRelease) throws(StorageError) {
        guard let (identifier, scope, _) = try lockLeasedRequest(claim.requestID, owner: claim.owner) else { return }
        var superseded = try pendingRequestExists(identifier: identifier, scope: scope)
        if !superseded {
            // A submit on another host may make a request of this task and scope pending meanwhile:
            // the unique index then refuses this one, and the new one supersedes it.
            try connection.execute("SAVEPOINT release")
            do throws(StorageError) {
                try connection.query(
                    """
                    UPDATE task_requests SET lease_owner = NULL, lease_expires_at = NULL, claimed_at = NULL,
                        attempts = greatest(0, attempts - 1)
                    WHERE id = $1
                    """, [.pg(claim.requestID)])
                try connection.execute("RELEASE SAVEPOINT release")
            } catch .postgresql("23505", _, _) {
                try connection.execute("ROLLBACK TO SAVEPOINT release")
                superseded = true
            }
        }
        if superseded { try deleteRequest(claim.requestID) }
        try connection.query("DELETE FROM task_runs WHERE id = $1 AND finished_at IS NULL", [.pg(claim.runID)])
    }

    private func deleteRequest(_ id: Int64) throws(StorageError) {
        try connection.query("DELETE FROM task_requests WHERE id = $1", [.pg(id)])
    }

    // MARK: History and status

    func taskRuns(identifier: String?, scope: String?, limit: Int?, includeUnfinished: Bool) throws(StorageError)
        -> [TaskRunRecord]
    {
        // LIMIT NULL is no limit.
        let rows = try connection.query(
            """
            SELECT * FROM (
                SELECT id, request_id, identifier, scope, kind, attempt, worker, started_at, lease_expires_at,
                    finished_at, outcome, reason, successor_pending, periods
                FROM task_runs
                WHERE ($1::text IS NULL OR identifier = $1::text) AND ($2::text IS NULL OR scope = $2::text)
                    AND ($3::boolean OR finished_at IS NOT NULL)
                ORDER BY id DESC LIMIT $4::bigint) AS recent
            ORDER BY id
            """, [identifier, scope, .pg(includeUnfinished), .pg(limit)])
        return (0..<rows.count).compactMap { decodeRun(rows, $0) }
    }

    func brokenTaskChains() throws(StorageError) -> [TaskRunRecord] {
        let rows = try connection.query(
            """
            SELECT run.id, run.request_id, run.identifier, run.scope, run.kind, run.attempt, run.worker,
                run.started_at, run.lease_expires_at, run.finished_at, run.outcome, run.reason, run.successor_pending,
                run.periods
            FROM task_runs AS run
            JOIN (SELECT max(id) AS id FROM task_runs WHERE finished_at IS NOT NULL GROUP BY identifier, scope) AS last
                ON last.id = run.id
            WHERE run.outcome = 'success' AND NOT run.successor_pending
            ORDER BY run.identifier, run.scope
            """)
        return (0..<rows.count).compactMap { decodeRun(rows, $0) }
    }

    func scopesNeverSubmitted(identifier: String, perUser: Bool) throws(StorageError) -> [String] {
        let rows =
            perUser
            ? try connection.query(
                """
                SELECT id FROM users AS u
                WHERE NOT EXISTS (SELECT 1 FROM task_requests WHERE identifier = $1 AND scope = u.id)
                    AND NOT EXISTS (SELECT 1 FROM task_runs WHERE identifier = $1 AND scope = u.id)
                    AND NOT EXISTS (SELECT 1 FROM discarded_task_requests WHERE identifier = $1 AND scope = u.id)
                ORDER BY id
                """, [identifier])
            : try connection.query(
                """
                SELECT '' WHERE NOT EXISTS (SELECT 1 FROM task_requests WHERE identifier = $1 AND scope = '')
                    AND NOT EXISTS (SELECT 1 FROM task_runs WHERE identifier = $1 AND scope = '')
                    AND NOT EXISTS (SELECT 1 FROM discarded_task_requests WHERE identifier = $1 AND scope = '')
                """, [identifier])
        return (0..<rows.count).map { rows.string($0, 0) }
    }

    func staleTaskLeases(refreshAge: TimeInterval, processingAge: TimeInterval) throws(StorageError)
        -> [TaskRequestRecord]
    {
        let rows = try connection.query(
            """
            SELECT id, identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network,
                submitted_at, attempts, lease_owner, lease_expires_at, claimed_at
            FROM task_requests
            WHERE lease_owner IS NOT NULL
                AND lease_expires_at <= $1::bigint - CASE kind WHEN 'processing' THEN $2::bigint ELSE $3::bigint END
            ORDER BY lease_expires_at, id
            """,
            [
                .pg(nowMilliseconds), .pg(Int64((processingAge * 1000).rounded())),
                .pg(Int64((refreshAge * 1000).rounded())),
            ])
        return (0..<rows.count).compactMap { decodeRequest(rows, $0) }
    }

    func taskRequestCounts() throws(StorageError) -> [String: TaskRequestCounts] {
        let rows = try connection.query(
            """
            SELECT identifier,
                count(*) FILTER (WHERE lease_owner IS NULL),
                count(*) FILTER (WHERE lease_owner IS NULL AND (earliest_begin_at IS NULL OR earliest_begin_at <= $1)),
                count(*) FILTER (WHERE lease_owner IS NOT NULL AND lease_expires_at > $1),
                count(*) FILTER (WHERE lease_owner IS NOT NULL AND lease_expires_at <= $1)
            FROM task_requests GROUP BY identifier
            """, [.pg(nowMilliseconds)])
        var counts: [String: TaskRequestCounts] = [:]
        for row in 0..<rows.count {
            counts[rows.string(row, 0)] = TaskRequestCounts(
                pending: rows.int(row, 1), due: rows.int(row, 2), running: rows.int(row, 3),
                abandoned: rows.int(row, 4))
        }
        return counts
    }

    func taskRunTotals() throws(StorageError) -> [TaskRunTotal] {
        let rows = try connection.query(
            """
            SELECT identifier, outcome, count(*), sum(finished_at - started_at), max(finished_at)
            FROM task_runs WHERE finished_at IS NOT NULL
            GROUP BY identifier, outcome ORDER BY identifier, outcome
            """)
        return (0..<rows.count).compactMap { row in
            guard let outcome = TaskRunOutcome(rawValue: rows.string(row, 1)) else { return nil }
            return TaskRunTotal(
                identifier: rows.string(row, 0), outcome: outcome, runs: rows.int(row, 2),
                totalDuration: Double(rows.int64(row, 3)) / 1000,
                lastFinishedAt: Store.date(milliseconds: rows.int64(row, 4)))
        }
    }

    // MARK: Decoding

    /// Reads a row in this column order: id, identifier, scope, kind, earliest_begin_at,
    /// requires_external_power, requires_network, submitted_at, attempts, lease_owner,
    /// lease_expires_at, claimed_at.
    func decodeRequest(_ rows: PostgreSQLRows, _ row: Int) -> TaskRequestRecord? {
        guard let kind = TaskRequestKind(rawValue: rows.string(row, 3)) else { return nil }
        func date(_ column: Int32) -> Date? {
            rows.optionalInt64(row, column).map { Store.date(milliseconds: $0) }
        }
        return TaskRequestRecord(
            id: rows.int64(row, 0), identifier: rows.string(row, 1), scope: rows.string(row, 2), kind: kind,
            earliestBeginAt: date(4), requiresExternalPower: rows.bool(row, 5), requiresNetwork: rows.bool(row, 6),
            submittedAt: Store.date(milliseconds: rows.int64(row, 7)), attempts: rows.int(row, 8),
            leaseOwner: rows.optionalString(row, 9), leaseExpiresAt: date(10), claimedAt: date(11))
    }

    private func decodeRun(_ rows: PostgreSQLRows, _ row: Int) -> TaskRunRecord? {
        guard let kind = TaskRequestKind(rawValue: rows.string(row, 4)) else { return nil }
        return TaskRunRecord(
            id: rows.int64(row, 0), requestID: rows.int64(row, 1), identifier: rows.string(row, 2),
            scope: rows.string(row, 3), kind: kind, attempt: rows.int(row, 5), worker: rows.string(row, 6),
            startedAt: Store.date(milliseconds: rows.int64(row, 7)),
            leaseExpiresAt: Store.date(milliseconds: rows.int64(row, 8)),
            finishedAt: rows.optionalInt64(row, 9).map { Store.date(milliseconds: $0) },
            outcome: rows.optionalString(row, 10).flatMap(TaskRunOutcome.init(rawValue:)),
            reason: rows.optionalString(row, 11), successorPending: rows.optionalBool(row, 12),
            periods: rows.optionalInt(row, 13))
    }
}
