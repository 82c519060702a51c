// One file for the scheduler's statements, in both dialects: a claim, a finish and the reads of status are read
// together when one of them changes, since each relies on the indexes the others use.

/// The scheduler's statements (`Store+Scheduler.swift`, `Store+Operations.swift`). Times are milliseconds since
/// 1970; a request's columns, where a statement returns them, are `TaskRequestRecord(row:)`'s.
///
/// Submitting is an upsert against the partial unique index of pending requests (`WHERE lease_owner IS NULL`;
/// https://www.sqlite.org/lang_upsert.html: a partial index needs its WHERE in the target), so two processes
/// submitting at once cannot leave two pending rows. A claim is one `UPDATE … RETURNING`, expired leases first
/// (their workers died), then pending requests in the order they became due; each arm walks an index in that
/// order (migration 0006) and stops at the limit. On PostgreSQL each arm takes its rows `FOR UPDATE SKIP LOCKED`:
/// a row another worker is claiming is skipped, not waited for, and a row it has claimed no longer matches when
/// re-checked, so no request is handed to two workers
/// (https://www.postgresql.org/docs/15/sql-select.html#SQL-FOR-UPDATE-SHARE; a locking clause cannot sit under
/// UNION, so each arm is a CTE of its own). SQLite's single writer needs no lock; its indexes are named
/// (`INDEXED BY`): without statistics its planner preferred the plain per-task index and sorted all of a task's
/// requests again.
extension SQL {
    // MARK: Submitting

    /// $1 rows of (identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network), one per
    /// chain, $2 submitted_at: each pending, replacing a pending request of its chain (its attempts start again).
    static let replaceTaskRequests = SQL(
        """
        INSERT INTO task_requests (
            identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network, submitted_at)
        SELECT s.value ->> 0, s.value ->> 1, s.value ->> 2, (s.value ->> 3)::bigint, (s.value ->> 4)::boolean,
            (s.value ->> 5)::boolean, $2::bigint
        FROM json_array_elements($1::json) WITH ORDINALITY AS s (value, key) WHERE true ORDER BY s.key
        ON CONFLICT (identifier, scope) WHERE lease_owner IS NULL DO UPDATE SET
            kind = excluded.kind, earliest_begin_at = excluded.earliest_begin_at,
            requires_external_power = excluded.requires_external_power,
            requires_network = excluded.requires_network, submitted_at = excluded.submitted_at, attempts = 0
        """)

    /// $1 rows of (identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network),
    /// $2 submitted_at: each inserted, in order, whose chain has no request and none discarded; the ids inserted.
    ///
    /// Each `EXISTS` here and in `withdrawTaskRequests` ends in `LIMIT 1 OFFSET 0`, which PostgreSQL does not turn
    /// into a join: it looks each row's chain up in its index, whatever it estimates. As a join it hashed every
    /// request of the table, or compared every one of a task with each row, at each page of a first night (whose
    /// requests grow faster than their statistics), so a night grew with the square of its users. (The page of users
    /// without a chain is left a join: a later launch, where every user has one, reads them all in one merge.)
    static let keepTaskRequests = SQL(
        """
        INSERT INTO task_requests (
            identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network, submitted_at)
        SELECT s.value ->> 0, s.value ->> 1, s.value ->> 2, (s.value ->> 3)::bigint, (s.value ->> 4)::boolean,
            (s.value ->> 5)::boolean, $2::bigint
        FROM json_array_elements($1::json) WITH ORDINALITY AS s (value, key)
        WHERE NOT EXISTS (
                SELECT 1 FROM task_requests t WHERE t.identifier = s.value ->> 0 AND t.scope = s.value ->> 1
                LIMIT 1 OFFSET 0)
            AND NOT EXISTS (
                SELECT 1 FROM discarded_task_requests d WHERE d.identifier = s.value ->> 0 AND d.scope = s.value ->> 1
                LIMIT 1 OFFSET 0)
        ORDER BY s.key
        ON CONFLICT (identifier, scope) WHERE lease_owner IS NULL DO NOTHING
        RETURNING id
        """)

    /// $1 ids (a list): deletes each whose chain has another request by now.
    static let withdrawTaskRequests = SQL(
        """
        DELETE FROM task_requests AS r
        WHERE r.id = ANY($1::bigint[]) AND EXISTS (
            SELECT 1 FROM task_requests o WHERE o.identifier = r.identifier AND o.scope = r.scope AND o.id <> r.id
            LIMIT 1 OFFSET 0)
        """)

    /// $1 now, $2 identifiers (a list), $3 scope or NULL: pending requests due later made due now.
    static let makeTaskRequestsDue = SQL(
        """
        UPDATE task_requests SET earliest_begin_at = $1
        WHERE lease_owner IS NULL AND earliest_begin_at > $1
            AND identifier = ANY($2::text[]) AND ($3::text IS NULL OR scope = $3::text)
        """)

    /// $1 identifier or NULL, $2 scope or NULL.
    static let deletePendingTaskRequests = SQL(
        """
        DELETE FROM task_requests
        WHERE lease_owner IS NULL AND ($1::text IS NULL OR identifier = $1::text)
            AND ($2::text IS NULL OR scope = $2::text)
        """)

    // MARK: Reading requests

    /// $1 identifier or NULL, $2 scope or NULL: every request, then its last_error, by when it may begin.
    static let taskRequests = SQL(
        """
        SELECT id, identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network,
            submitted_at, attempts, lease_owner, lease_expires_at, claimed_at, last_error
        FROM task_requests
        WHERE ($1::text IS NULL OR identifier = $1::text) AND ($2::text IS NULL OR scope = $2::text)
        ORDER BY coalesce(earliest_begin_at, submitted_at), id
        """)

    /// The highest request id handed out (0 for none). On PostgreSQL the sequence's, not max(id): a request that
    /// succeeded is deleted, and ids are never reused.
    static let latestTaskRequestID = SQL(
        sqlite: "SELECT coalesce(max(id), 0) FROM task_requests",
        postgresql: """
            SELECT greatest(coalesce((SELECT max(id) FROM task_requests), 0),
                coalesce((SELECT last_value FROM task_requests_id_seq WHERE is_called), 0))
            """)

    /// $1 identifiers (a list), $2 scope or NULL, $3 now, $4 the highest id: pending requests due.
    static let dueTaskRequestCount = SQL(
        """
        SELECT count(*) FROM task_requests
        WHERE lease_owner IS NULL AND coalesce(earliest_begin_at, submitted_at) <= $3::bigint
            AND identifier = ANY($1::text[]) AND ($2::text IS NULL OR scope = $2::text) AND id <= $4::bigint
        """)

    /// $1 identifier, $2 the id to start after ('' for the first page), $3 limit: users with no request of it,
    /// pending, running or discarded, in id order. `id > $2` alone, never `$2 IS NULL OR …`: PostgreSQL's generic
    /// plan of that form scanned every user from the first at each page (docs/benchmarks.md).
    static let usersWithoutTaskRequest = SQL(
        """
        SELECT id, time_zone FROM users AS u
        WHERE id > $2
            AND NOT EXISTS (SELECT 1 FROM task_requests WHERE identifier = $1 AND scope = u.id)
            AND NOT EXISTS (SELECT 1 FROM discarded_task_requests WHERE identifier = $1 AND scope = u.id)
        ORDER BY id LIMIT $3
        """)

    /// $1 identifier, $2 the first user of a page of `usersWithoutTaskRequest`, $3 true to take, false to release: the
    /// session lock a launch holds while it starts that page's chains (PostgreSQL only), keyed by the schema too (the
    /// databases of one server's schemas are strangers); true when taken or released.
    static let chainStartsLock = SQL(
        sqlite: "SELECT 1",
        postgresql: """
            SELECT CASE WHEN $3 THEN pg_try_advisory_lock(key) ELSE pg_advisory_unlock(key) END
            FROM (SELECT hashtextextended(concat_ws('/', 'pipeline.chains', current_schema(), $1::text, $2::text), 0) AS key) AS k
            """)

    /// $1 identifiers (a list), $2 scope or NULL, $3 now, $4 the highest id, $5 on external power, $6 network,
    /// $7 limit: requests another worker's lease holds, and requests due whose conditions are unmet, by id.
    static let heldOrWaitingTaskRequests = SQL(
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
        """)

    // MARK: Claiming

    /// $1 owner, $2 now, $3 processing lease, $4 refresh lease, $5 on external power, $6 network, $7 identifiers
    /// (a list), $8 scope or NULL, $9 limit, $10 the highest id: the requests claimed, leased, their attempt
    /// counted.
    static let claimTaskRequests = SQL(
        sqlite: """
            UPDATE task_requests SET
                lease_owner = $1,
                lease_expires_at = $2 + CASE kind WHEN 'processing' THEN $3 ELSE $4 END,
                claimed_at = $2,
                attempts = attempts + 1
            WHERE id IN (
                SELECT id FROM (
                    SELECT id FROM task_requests INDEXED BY task_requests_leased
                    WHERE lease_owner IS NOT NULL AND lease_expires_at <= $2
                        AND (requires_external_power = 0 OR $5) AND (requires_network = 0 OR $6)
                        AND identifier IN (SELECT value FROM json_each($7)) AND ($8 IS NULL OR scope = $8)
                        AND id <= $10
                    ORDER BY lease_expires_at, id LIMIT $9)
                UNION ALL
                SELECT id FROM (
                    SELECT id FROM task_requests INDEXED BY task_requests_claimable
                    WHERE lease_owner IS NULL AND coalesce(earliest_begin_at, submitted_at) <= $2
                        AND (requires_external_power = 0 OR $5) AND (requires_network = 0 OR $6)
                        AND identifier IN (SELECT value FROM json_each($7)) AND ($8 IS NULL OR scope = $8)
                        AND id <= $10
                    ORDER BY coalesce(earliest_begin_at, submitted_at), id LIMIT $9)
                LIMIT $9)
            RETURNING id, identifier, scope, kind, earliest_begin_at, requires_external_power,
                requires_network, submitted_at, attempts, lease_owner, lease_expires_at, claimed_at
            """,
        postgresql: claimOnPostgreSQL)

    /// As `claimTaskRequests`, for one identifier: on SQLite the form that walks the per-task index.
    static let claimTaskRequestsOfTask = SQL(
        sqlite: """
            UPDATE task_requests SET
                lease_owner = $1,
                lease_expires_at = $2 + CASE kind WHEN 'processing' THEN $3 ELSE $4 END,
                claimed_at = $2,
                attempts = attempts + 1
            WHERE id IN (
                SELECT id FROM (
                    SELECT id FROM task_requests INDEXED BY task_requests_leased
                    WHERE lease_owner IS NOT NULL AND lease_expires_at <= $2
                        AND (requires_external_power = 0 OR $5) AND (requires_network = 0 OR $6)
                        AND identifier = $7 ->> 0 AND ($8 IS NULL OR scope = $8) AND id <= $10
                    ORDER BY lease_expires_at, id LIMIT $9)
                UNION ALL
                SELECT id FROM (
                    SELECT id FROM task_requests INDEXED BY task_requests_claimable_by_task
                    WHERE lease_owner IS NULL AND coalesce(earliest_begin_at, submitted_at) <= $2
                        AND (requires_external_power = 0 OR $5) AND (requires_network = 0 OR $6)
                        AND identifier = $7 ->> 0 AND ($8 IS NULL OR scope = $8) AND id <= $10
                    ORDER BY coalesce(earliest_begin_at, submitted_at), id LIMIT $9)
                LIMIT $9)
            RETURNING id, identifier, scope, kind, earliest_begin_at, requires_external_power,
                requires_network, submitted_at, attempts, lease_owner, lease_expires_at, claimed_at
            """,
        postgresql: claimOnPostgreSQL)

    private static let claimOnPostgreSQL: StaticString = """
        WITH expired AS (
            SELECT id FROM task_requests
            WHERE lease_owner IS NOT NULL AND lease_expires_at <= $2::bigint
                AND (NOT requires_external_power OR $5::boolean) AND (NOT requires_network OR $6::boolean)
                AND identifier = ANY($7::text[]) AND ($8::text IS NULL OR scope = $8::text)
                AND id <= $10::bigint
            ORDER BY lease_expires_at, id LIMIT $9::bigint
            FOR UPDATE SKIP LOCKED),
        pending AS (
            SELECT due.id FROM unnest($7::text[]) AS wanted (identifier)
            CROSS JOIN LATERAL (
                SELECT id, coalesce(earliest_begin_at, submitted_at) AS due_at FROM task_requests
                WHERE identifier = wanted.identifier AND lease_owner IS NULL
                    AND coalesce(earliest_begin_at, submitted_at) <= $2::bigint
                    AND (NOT requires_external_power OR $5::boolean) AND (NOT requires_network OR $6::boolean)
                    AND ($8::text IS NULL OR scope = $8::text) AND id <= $10::bigint
                ORDER BY identifier, coalesce(earliest_begin_at, submitted_at), id LIMIT $9::bigint
                FOR UPDATE SKIP LOCKED) AS due
            ORDER BY due.due_at, due.id LIMIT $9::bigint)
        UPDATE task_requests SET
            lease_owner = $1,
            lease_expires_at = $2::bigint + CASE kind WHEN 'processing' THEN $3::bigint ELSE $4::bigint END,
            claimed_at = $2::bigint,
            attempts = attempts + 1
        WHERE id IN (
            SELECT id FROM (SELECT id FROM expired UNION ALL SELECT id FROM pending) AS due LIMIT $9::bigint)
        RETURNING id, identifier, scope, kind, earliest_begin_at, requires_external_power,
            requires_network, submitted_at, attempts, lease_owner, lease_expires_at, claimed_at
        """

    /// $1 request ids (a list): closes the runs dead workers left open for them as failures at the moment their
    /// leases expired; each request's id, the dead worker, and the run's id and finish (for `recordLatestRuns`). On
    /// PostgreSQL the runs in progress are those of the default partition (`finished_at IS NULL`); each moves into
    /// the partition of the day it is closed as finished.
    static let closeAbandonedRuns = SQL(
        """
        UPDATE task_runs AS r SET finished_at = r.lease_expires_at, outcome = 'failure',
            reason = 'lease expired: worker died',
            successor_pending = EXISTS (
                SELECT 1 FROM task_requests t
                WHERE t.identifier = r.identifier AND t.scope = r.scope AND t.lease_owner IS NULL)
        WHERE r.request_id = ANY($1::bigint[]) AND r.finished_at IS NULL
        RETURNING request_id, worker, id, finished_at
        """)

    /// $1 request ids (a list), claimed: opens a run for each, in the order they became due; each run's id and
    /// request.
    static let openRuns = SQL(
        """
        INSERT INTO task_runs (request_id, identifier, scope, kind, attempt, worker, started_at, lease_expires_at)
        SELECT id, identifier, scope, kind, attempts, lease_owner, claimed_at, lease_expires_at FROM task_requests
        WHERE id = ANY($1::bigint[])
        ORDER BY coalesce(earliest_begin_at, submitted_at), id
        RETURNING id, request_id
        """)

    // MARK: Finishing

    /// $1 request ids (a list), $2 rows of (request id, owner, attempt): the id, identifier, scope and attempts of
    /// each request whose lease holds — whether or not it has expired, until a claim takes it over (PostgreSQL:
    /// locked, in id order, so it and a reclaim cannot both win, and two batches never wait on each other in a
    /// circle). The list finds the rows by their key: on PostgreSQL a join on the rows alone was planned as a scan of
    /// the whole table.
    static let leasedTaskRequests = SQL(
        """
        SELECT r.id, r.identifier, r.scope, r.attempts FROM task_requests AS r
        WHERE r.id = ANY($1::bigint[]) AND (r.id, r.lease_owner, r.attempts) IN (
            SELECT (s.value ->> 0)::bigint, s.value ->> 1, (s.value ->> 2)::integer
            FROM json_array_elements($2::json) AS s (value))
        ORDER BY r.id
        FOR UPDATE OF r
        """)

    /// $1 identifiers, $2 scopes (lists of one length, pairwise: one chain each): the chains with a pending request,
    /// each looked up in the index of pending requests.
    static let pendingTaskChains = SQL(
        sqlite: """
            SELECT i.value, s.value FROM json_each($1) AS i JOIN json_each($2) AS s ON s.key = i.key
            WHERE EXISTS (
                SELECT 1 FROM task_requests r
                WHERE r.identifier = i.value AND r.scope = s.value AND r.lease_owner IS NULL)
            """,
        postgresql: """
            SELECT c.identifier, c.scope FROM unnest($1::text[], $2::text[]) AS c (identifier, scope)
            WHERE EXISTS (
                SELECT 1 FROM task_requests r
                WHERE r.identifier = c.identifier AND r.scope = c.scope AND r.lease_owner IS NULL)
            """)

    /// $1 ids (a list).
    static let deleteTaskRequests = SQL("DELETE FROM task_requests WHERE id = ANY($1::bigint[])")

    /// $1 request id, $2 earliest_begin_at, $3 last_error: pending again, to be retried.
    static let retryTaskRequest = SQL(
        """
        UPDATE task_requests SET lease_owner = NULL, lease_expires_at = NULL, claimed_at = NULL,
            earliest_begin_at = $2, last_error = $3
        WHERE id = $1
        """)

    /// $1 identifier, $2 scope, $3 retry at, $4 attempts, $5 last_error: the chain's pending successor takes the
    /// retry (moved up to $3 if due later) and the attempt count.
    static let moveSuccessorUp = SQL(
        """
        UPDATE task_requests SET
            earliest_begin_at = CASE WHEN earliest_begin_at IS NULL OR earliest_begin_at <= $3
                THEN earliest_begin_at ELSE $3 END,
            attempts = CASE WHEN attempts < $4 THEN $4 ELSE attempts END, last_error = $5
        WHERE identifier = $1 AND scope = $2 AND lease_owner IS NULL
        """)

    /// $1 request id: pending again, its attempt uncounted (a claim given back unrun).
    static let releaseTaskRequest = SQL(
        """
        UPDATE task_requests SET lease_owner = NULL, lease_expires_at = NULL, claimed_at = NULL,
            attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END
        WHERE id = $1
        """)

    /// $1 run ids (a list), $2 rows of (run id, outcome, reason, successor_pending, periods), $3 finished_at: each
    /// run still open closed. On PostgreSQL the list finds the runs by their key (a join on the rows alone was
    /// planned as a scan of the whole history), in the default partition alone, which holds the runs in progress:
    /// each moves into the partition of its day; and the same statement records the chains' latest runs among them
    /// (`record_latest_task_runs`, migration 14: what `recordLatestRuns` does, without another round trip and
    /// without reading the runs again). On SQLite `recordLatestRuns` follows it.
    static let finishRuns = SQL(
        sqlite: """
            UPDATE task_runs SET finished_at = $3, outcome = s.value ->> 1, reason = s.value ->> 2,
                successor_pending = s.value ->> 3, periods = s.value ->> 4
            FROM json_each($2) AS s
            WHERE task_runs.id = s.value ->> 0 AND task_runs.finished_at IS NULL
            """,
        postgresql: """
            WITH finished AS (
                UPDATE task_runs r SET finished_at = $3::bigint, outcome = s.e ->> 1, reason = s.e ->> 2,
                    successor_pending = (s.e ->> 3)::boolean, periods = (s.e ->> 4)::integer
                FROM json_array_elements($2::json) AS s (e)
                WHERE r.id = ANY($1::bigint[]) AND r.id = (s.e ->> 0)::bigint AND r.finished_at IS NULL
                RETURNING r AS run)
            SELECT record_latest_task_runs(array_agg(run)) FROM finished
            """)

    /// $1 run ids (a list), finished, $2 and $3 the earliest and latest finish of the runs (on PostgreSQL, the days
    /// to read them from): each chain's latest of them recorded as the chain's latest finished run, unless a later one
    /// is recorded already (batches on other workers commit in any order), and a success among them as its last
    /// success, unless a later one is recorded. In chain order, so two batches with chains in common lock their rows
    /// in one order. PostgreSQL's form is `record_latest_task_runs` (migration 14), which `finishRuns` calls too.
    static let recordLatestRuns = SQL(
        sqlite: """
            INSERT INTO latest_task_runs (
                identifier, scope, run_id, request_id, kind, attempt, worker, started_at, lease_expires_at, finished_at,
                outcome, reason, successor_pending, periods, last_success_at)
            SELECT r.identifier, r.scope, r.id, r.request_id, r.kind, r.attempt, r.worker, r.started_at,
                r.lease_expires_at, r.finished_at, r.outcome, r.reason, r.successor_pending, r.periods, s.last_success_at
            FROM (
                SELECT max(id) AS id, max(CASE WHEN outcome = 'success' THEN finished_at END) AS last_success_at
                FROM task_runs
                WHERE id IN (SELECT value FROM json_each($1)) AND finished_at >= $2 AND finished_at <= $3
                GROUP BY identifier, scope) AS s
            JOIN task_runs AS r ON r.id = s.id AND r.finished_at >= $2 AND r.finished_at <= $3
            WHERE true ORDER BY r.identifier, r.scope
            ON CONFLICT (identifier, scope) DO UPDATE SET
                run_id = CASE WHEN excluded.run_id > latest_task_runs.run_id
                    THEN excluded.run_id ELSE latest_task_runs.run_id END,
                request_id = CASE WHEN excluded.run_id > latest_task_runs.run_id
                    THEN excluded.request_id ELSE latest_task_runs.request_id END,
                kind = CASE WHEN excluded.run_id > latest_task_runs.run_id
                    THEN excluded.kind ELSE latest_task_runs.kind END,
                attempt = CASE WHEN excluded.run_id > latest_task_runs.run_id
                    THEN excluded.attempt ELSE latest_task_runs.attempt END,
                worker = CASE WHEN excluded.run_id > latest_task_runs.run_id
                    THEN excluded.worker ELSE latest_task_runs.worker END,
                started_at = CASE WHEN excluded.run_id > latest_task_runs.run_id
                    THEN excluded.started_at ELSE latest_task_runs.started_at END,
                lease_expires_at = CASE WHEN excluded.run_id > latest_task_runs.run_id
                    THEN excluded.lease_expires_at ELSE latest_task_runs.lease_expires_at END,
                finished_at = CASE WHEN excluded.run_id > latest_task_runs.run_id
                    THEN excluded.finished_at ELSE latest_task_runs.finished_at END,
                outcome = CASE WHEN excluded.run_id > latest_task_runs.run_id
                    THEN excluded.outcome ELSE latest_task_runs.outcome END,
                reason = CASE WHEN excluded.run_id > latest_task_runs.run_id
                    THEN excluded.reason ELSE latest_task_runs.reason END,
                successor_pending = CASE WHEN excluded.run_id > latest_task_runs.run_id
                    THEN excluded.successor_pending ELSE latest_task_runs.successor_pending END,
                periods = CASE WHEN excluded.run_id > latest_task_runs.run_id
                    THEN excluded.periods ELSE latest_task_runs.periods END,
                last_success_at = CASE WHEN latest_task_runs.last_success_at IS NULL
                        OR excluded.last_success_at > latest_task_runs.last_success_at
                    THEN coalesce(excluded.last_success_at, latest_task_runs.last_success_at)
                    ELSE latest_task_runs.last_success_at END
            """,
        postgresql: """
            SELECT record_latest_task_runs(array_agg(r)) FROM task_runs AS r
            WHERE r.id = ANY($1::bigint[]) AND r.finished_at >= $2::bigint AND r.finished_at <= $3::bigint
            """)

    static let deleteUnfinishedRun = SQL("DELETE FROM task_runs WHERE id = $1 AND finished_at IS NULL")

    /// $1 request ids (a list), $2 last_error or NULL (each request's own), $3 cause, $4 discarded_at: a copy of
    /// each among the discarded requests, in id order (the caller deletes the requests).
    static let discardTaskRequests = SQL(
        """
        INSERT INTO discarded_task_requests (
            request_id, identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network,
            submitted_at, attempts, last_error, cause, discarded_at)
        SELECT id, identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network,
            submitted_at, attempts, coalesce($2, last_error), $3, $4
        FROM task_requests WHERE id = ANY($1::bigint[]) ORDER BY id
        """)

    // MARK: History and status

    /// $1 identifier or NULL, $2 scope or NULL, $3 whether unfinished runs too, $4 limit: the most recent runs,
    /// oldest first: those of the history, and each chain's latest finished run, pruned from the history or not.
    static let taskRuns = SQL(
        """
        SELECT * FROM (
            SELECT id, request_id, identifier, scope, kind, attempt, worker, started_at, lease_expires_at,
                finished_at, outcome, reason, successor_pending, periods
            FROM task_runs
            WHERE ($1::text IS NULL OR identifier = $1::text) AND ($2::text IS NULL OR scope = $2::text)
                AND ($3::boolean OR finished_at IS NOT NULL)
            UNION ALL
            SELECT run_id, request_id, identifier, scope, kind, attempt, worker, started_at, lease_expires_at,
                finished_at, outcome, reason, successor_pending, periods
            FROM latest_task_runs AS latest
            WHERE ($1::text IS NULL OR identifier = $1::text) AND ($2::text IS NULL OR scope = $2::text)
                AND NOT EXISTS (
                    SELECT 1 FROM task_runs AS run
                    WHERE run.identifier = latest.identifier AND run.scope = latest.scope AND run.id = latest.run_id)
            ORDER BY id DESC LIMIT $4::bigint) AS recent
        ORDER BY id
        """)

    /// The latest finished run of each chain, where it succeeded and left no successor pending.
    static let brokenTaskChains = SQL(
        """
        SELECT run_id, request_id, identifier, scope, kind, attempt, worker, started_at, lease_expires_at,
            finished_at, outcome, reason, successor_pending, periods
        FROM latest_task_runs
        WHERE outcome = 'success' AND NOT successor_pending
        ORDER BY identifier, scope
        """)

    /// $1 identifier: users that never had a request of it, never finished a run of it (a run in progress has its
    /// request), and have none discarded.
    static let usersNeverSubmitted = SQL(
        """
        SELECT id FROM users AS u
        WHERE NOT EXISTS (SELECT 1 FROM task_requests WHERE identifier = $1 AND scope = u.id)
            AND NOT EXISTS (SELECT 1 FROM latest_task_runs WHERE identifier = $1 AND scope = u.id)
            AND NOT EXISTS (SELECT 1 FROM discarded_task_requests WHERE identifier = $1 AND scope = u.id)
        ORDER BY id
        """)

    /// $1 identifier: the global scope `''`, when it never had a request of it.
    static let globalScopeNeverSubmitted = SQL(
        """
        SELECT '' WHERE NOT EXISTS (SELECT 1 FROM task_requests WHERE identifier = $1 AND scope = '')
            AND NOT EXISTS (SELECT 1 FROM latest_task_runs WHERE identifier = $1 AND scope = '')
            AND NOT EXISTS (SELECT 1 FROM discarded_task_requests WHERE identifier = $1 AND scope = '')
        """)

    /// $1 now, $2 processing age, $3 refresh age: requests whose lease expired that long ago.
    static let staleTaskLeases = SQL(
        """
        SELECT id, identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network,
            submitted_at, attempts, lease_owner, lease_expires_at, claimed_at
        FROM task_requests
        WHERE lease_owner IS NOT NULL
            AND lease_expires_at <= $1::bigint - CASE kind WHEN 'processing' THEN $2::bigint ELSE $3::bigint END
        ORDER BY lease_expires_at, id
        """)

    /// $1 now: each identifier's pending, due, running and abandoned requests.
    static let taskRequestCounts = SQL(
        """
        SELECT identifier,
            count(*) FILTER (WHERE lease_owner IS NULL),
            count(*) FILTER (WHERE lease_owner IS NULL AND (earliest_begin_at IS NULL OR earliest_begin_at <= $1)),
            count(*) FILTER (WHERE lease_owner IS NOT NULL AND lease_expires_at > $1),
            count(*) FILTER (WHERE lease_owner IS NOT NULL AND lease_expires_at <= $1)
        FROM task_requests GROUP BY identifier
        """)

    /// Each identifier and outcome: the runs of the history and their total duration, and the last finish, of the
    /// history or of a chain's latest run or last success (kept when the history is pruned). An outcome whose runs
    /// were all pruned has 0 runs.
    static let taskRunTotals = SQL(
        """
        SELECT identifier, outcome, sum(runs), sum(duration), max(last_finished_at) FROM (
            SELECT identifier, outcome, count(*) AS runs, sum(finished_at - started_at) AS duration,
                max(finished_at) AS last_finished_at
            FROM task_runs WHERE finished_at IS NOT NULL GROUP BY identifier, outcome
            UNION ALL
            SELECT identifier, outcome, 0::bigint, 0::bigint, max(finished_at)
            FROM latest_task_runs GROUP BY identifier, outcome
            UNION ALL
            SELECT identifier, 'success', 0::bigint, 0::bigint, max(last_success_at)
            FROM latest_task_runs WHERE last_success_at IS NOT NULL GROUP BY identifier) AS totals
        GROUP BY identifier, outcome ORDER BY identifier, outcome
        """)

    /// $1 now, $2 days: the run history's partitions of the day holding now and the days after, made ahead of the
    /// runs that start in them (PostgreSQL; SQLite keeps one table); how many were created.
    static let prepareTaskRunDays = SQL(
        sqlite: "SELECT 0",
        postgresql: "SELECT prepare_task_run_partitions($1::bigint, $2::integer)")

    /// $1 before: the run history's days that ended then or earlier dropped whole (PostgreSQL; SQLite deletes runs
    /// row by row, `pruneRuns`); about how many runs they held.
    static let dropTaskRunDays = SQL(
        sqlite: "SELECT 0",
        postgresql: "SELECT drop_task_run_partitions($1::bigint)")
}
