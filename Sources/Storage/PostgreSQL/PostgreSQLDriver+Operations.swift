import Domain
import Foundation

/// The operator's side of the schedule on PostgreSQL (see `Store+Operations.swift`). Rows a change
/// moves are locked `FOR UPDATE` first, so a claim or a finish on another host waits for it.
extension PostgreSQLDriver {
    // MARK: Launches

    func recordLaunch(worker: String) throws(StorageError) {
        try write { () throws(StorageError) in
            _ = try connection.query(
                """
                INSERT INTO scheduler_launches (id, launched_at, worker) VALUES (1, $1, $2)
                ON CONFLICT (id) DO UPDATE SET launched_at = excluded.launched_at, worker = excluded.worker
                WHERE excluded.launched_at >= scheduler_launches.launched_at
                """, [.pg(nowMilliseconds), worker])
        }
    }

    func lastLaunch() throws(StorageError) -> LaunchRecord? {
        let rows = try connection.query("SELECT launched_at, worker FROM scheduler_launches WHERE id = 1")
        guard rows.count == 1 else { return nil }
        return LaunchRecord(launchedAt: Store.date(milliseconds: rows.int64(0, 0)), worker: rows.string(0, 1))
    }

    // MARK: Requests

    func discardedTaskRequests(identifier: String?, scope: String?) throws(StorageError) -> [DiscardedTaskRequest] {
        let rows = try connection.query(
            """
            SELECT request_id, identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network,
                submitted_at, attempts, NULL::text, NULL::bigint, NULL::bigint, last_error, cause, discarded_at
            FROM discarded_task_requests
            WHERE ($1::text IS NULL OR identifier = $1::text) AND ($2::text IS NULL OR scope = $2::text)
            ORDER BY discarded_at, id
            """, [identifier, scope])
        return (0..<rows.count).compactMap { row in
            guard var request = decodeRequest(rows, row), let cause = DiscardCause(rawValue: rows.string(row, 13))
            else { return nil }
            request.lastError = rows.optionalString(row, 12)
            return DiscardedTaskRequest(
                request: request, cause: cause, discardedAt: Store.date(milliseconds: rows.int64(row, 14)))
        }
    }

    func discardedTaskRequestCounts() throws(StorageError) -> [String: DiscardedTaskRequestCounts] {
        let rows = try connection.query(
            """
            SELECT identifier, count(*) FILTER (WHERE cause = 'attempts'), count(*) FILTER (WHERE cause = 'cancelled')
            FROM discarded_task_requests GROUP BY identifier
            """)
        var counts: [String: DiscardedTaskRequestCounts] = [:]
        for row in 0..<rows.count {
            counts[rows.string(row, 0)] = DiscardedTaskRequestCounts(
                attempts: rows.int(row, 1), cancelled: rows.int(row, 2))
        }
        return counts
    }

    /// Moves request `id` into the discarded requests, inside the caller's transaction.
    func discardRequest(_ id: Int64, error: String?, cause: String) throws(StorageError) {
        try connection.query(
            """
            WITH moved AS (DELETE FROM task_requests WHERE id = $1 RETURNING *)
            INSERT INTO discarded_task_requests (
                request_id, identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network,
                submitted_at, attempts, last_error, cause, discarded_at)
            SELECT id, identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network,
                submitted_at, attempts, coalesce($2::text, last_error), $3, $4
            FROM moved
            """, [.pg(id), error, cause, .pg(nowMilliseconds)])
    }

    func cancelTaskRequests(ids: [Int64]?, identifier: String?, scope: String?) throws(StorageError)
        -> TaskRequestCancellation
    {
        try write { () throws(StorageError) in
            let rows = try connection.query(
                """
                SELECT id, lease_owner IS NOT NULL FROM task_requests
                WHERE ($1::bigint[] IS NULL OR id = ANY($1::bigint[]))
                    AND ($2::text IS NULL OR identifier = $2::text) AND ($3::text IS NULL OR scope = $3::text)
                ORDER BY id
                FOR UPDATE
                """, [ids.map { PostgreSQLDriver.arrayLiteral($0.map(String.init)) }, identifier, scope])
            var result = TaskRequestCancellation()
            for row in 0..<rows.count {
                let id = rows.int64(row, 0)
                if rows.bool(row, 1) {
                    result.running.append(id)
                } else {
                    try discardRequest(id, error: nil, cause: DiscardCause.cancelled.rawValue)
                    result.cancelled.append(id)
                }
            }
            return result
        }
    }

    func retryDiscardedTaskRequests(ids: [Int64]?, identifier: String?, scope: String?) throws(StorageError)
        -> [Int64]
    {
        try write { () throws(StorageError) in
            let rows = try connection.query(
                """
                DELETE FROM discarded_task_requests
                WHERE ($1::bigint[] IS NULL OR request_id = ANY($1::bigint[]))
                    AND ($1::bigint[] IS NOT NULL OR cause = 'attempts')
                    AND ($2::text IS NULL OR identifier = $2::text) AND ($3::text IS NULL OR scope = $3::text)
                RETURNING request_id, identifier, scope, kind, requires_external_power, requires_network
                """, [ids.map { PostgreSQLDriver.arrayLiteral($0.map(String.init)) }, identifier, scope])
            for row in 0..<rows.count {
                // Due now: a pending request of the chain is moved up rather than joined by a second.
                try connection.query(
                    """
                    INSERT INTO task_requests (
                        identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network,
                        submitted_at)
                    VALUES ($1, $2, $3, $4, $5, $6, $4)
                    ON CONFLICT (identifier, scope) WHERE lease_owner IS NULL DO UPDATE SET
                        earliest_begin_at = least(coalesce(task_requests.earliest_begin_at, excluded.earliest_begin_at),
                            excluded.earliest_begin_at),
                        attempts = 0, last_error = NULL
                    """,
                    [
                        rows.string(row, 1), rows.string(row, 2), rows.string(row, 3), .pg(nowMilliseconds),
                        .pg(rows.bool(row, 4)), .pg(rows.bool(row, 5)),
                    ])
            }
            return (0..<rows.count).map { rows.int64($0, 0) }.sorted()
        }
    }

    func overdueTaskRequests(identifier: String, dueBefore: Date) throws(StorageError) -> OverdueTaskRequests {
        let rows = try connection.query(
            """
            SELECT count(*), min(coalesce(earliest_begin_at, submitted_at)),
                count(*) FILTER (WHERE requires_external_power), count(*) FILTER (WHERE requires_network)
            FROM task_requests
            WHERE identifier = $1 AND lease_owner IS NULL AND coalesce(earliest_begin_at, submitted_at) <= $2
            """, [identifier, .pg(Store.milliseconds(dueBefore))])
        return OverdueTaskRequests(
            count: rows.int(0, 0), oldestDueAt: rows.optionalInt64(0, 1).map { Store.date(milliseconds: $0) },
            requiringExternalPower: rows.int(0, 2), requiringNetwork: rows.int(0, 3))
    }

    // MARK: Dead letters

    func deadLetters(user: UserID?, includeResolved: Bool) throws(StorageError) -> [DeadLetter] {
        let rows = try connection.query(
            """
            SELECT id, user_id, kind, payload::text, enqueued_at, attempts, last_error, failed_at, resolved_at,
                requeued_as
            FROM watch_dead_letters
            WHERE ($1::text IS NULL OR user_id = $1::text) AND ($2::boolean OR resolved_at IS NULL) ORDER BY id
            """, [user?.rawValue, .pg(includeResolved)])
        return (0..<rows.count).compactMap { row in
            guard let user = UserID(rows.string(row, 1)) else { return nil }
            let item = WatchItem(
                id: rows.int64(row, 0), user: user, kind: rows.string(row, 2), payload: rows.string(row, 3),
                enqueuedAt: Store.date(milliseconds: rows.int64(row, 4)), attempts: rows.int(row, 5),
                lastError: rows.optionalString(row, 6))
            return DeadLetter(
                item: item, failedAt: Store.date(milliseconds: rows.int64(row, 7)),
                resolvedAt: rows.optionalInt64(row, 8).map { Store.date(milliseconds: $0) },
                requeuedAs: rows.optionalInt64(row, 9))
        }
    }

    func requeueDeadLetters(ids: [Int64]?, user: UserID?) throws(StorageError) -> [Int64: Int64] {
        try write { () throws(StorageError) in
            let letters = try connection.query(
                """
                SELECT id FROM watch_dead_letters
                WHERE resolved_at IS NULL AND ($1::bigint[] IS NULL OR id = ANY($1::bigint[]))
                    AND ($2::text IS NULL OR user_id = $2::text)
                ORDER BY id
                FOR UPDATE
                """, [ids.map { PostgreSQLDriver.arrayLiteral($0.map(String.init)) }, user?.rawValue])
            var requeued: [Int64: Int64] = [:]
            for row in 0..<letters.count {
                let letter = letters.int64(row, 0)
                // The identity hands out a new id: PostgreSQL never reuses one.
                let item = try connection.query(
                    """
                    INSERT INTO watch_items (user_id, kind, payload, enqueued_at, attempts)
                    SELECT user_id, kind, payload, $2, 0 FROM watch_dead_letters WHERE id = $1
                    RETURNING id
                    """, [.pg(letter), .pg(nowMilliseconds)])
                guard item.count == 1 else { continue }
                let id = item.int64(0, 0)
                try connection.query(
                    "UPDATE watch_dead_letters SET resolved_at = $2, requeued_as = $3 WHERE id = $1",
                    [.pg(letter), .pg(nowMilliseconds), .pg(id)])
                requeued[letter] = id
            }
            return requeued
        }
    }

    // MARK: Pruning

    func pruneHistory(before: Date, limit: Int) throws(StorageError) -> PrunedHistory {
        try write { () throws(StorageError) in
            let parameters: [String?] = [.pg(Store.milliseconds(before)), .pg(limit)]
            var pruned = PrunedHistory()
            // A run is kept while it is the latest finished one of its task and scope: status reads it
            // (last success, broken chains, chains never started).
            pruned.runs = try connection.query(
                """
                DELETE FROM task_runs WHERE id IN (
                    SELECT id FROM task_runs AS run
                    WHERE finished_at IS NOT NULL AND finished_at < $1
                        AND EXISTS (
                            SELECT 1 FROM task_runs AS later
                            WHERE later.identifier = run.identifier AND later.scope = run.scope
                                AND later.id > run.id AND later.finished_at IS NOT NULL)
                    ORDER BY finished_at LIMIT $2)
                """, parameters
            ).affected
            pruned.outboxMessages = try connection.query(
                """
                DELETE FROM outbox WHERE id IN (
                    SELECT id FROM outbox WHERE acknowledged_at IS NOT NULL AND acknowledged_at < $1
                    ORDER BY acknowledged_at LIMIT $2)
                """, parameters
            ).affected
            pruned.deadLetters = try connection.query(
                """
                DELETE FROM watch_dead_letters WHERE id IN (
                    SELECT id FROM watch_dead_letters WHERE resolved_at IS NOT NULL AND resolved_at < $1
                    ORDER BY resolved_at LIMIT $2)
                """, parameters
            ).affected
            pruned.discardedRequests = try connection.query(
                """
                DELETE FROM discarded_task_requests WHERE id IN (
                    SELECT id FROM discarded_task_requests WHERE cause = 'attempts' AND discarded_at < $1
                    ORDER BY discarded_at LIMIT $2)
                """, parameters
            ).affected
            return pruned
        }
    }
}
