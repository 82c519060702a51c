public import Domain
public import Foundation

/// What an operator and a monitor need from the schedule (issue 11): the requests with their
/// errors, discarded requests and how to put them back, cancelling, the launch heartbeat, overdue
/// requests, dead letters to requeue, and pruning old history. Each change is one transaction.
extension Store {
    // MARK: Launches

    /// Records that a launch began now, as `worker`. Only a later launch replaces the record, so
    /// launches that overlap leave the latest.
    public func recordLaunch(worker: String) throws(StorageError) {
        try write { () throws(StorageError) in _ = try driver.run(.recordLaunch, [now, worker]) }
    }

    /// The latest launch recorded, or `nil` if none ever ran.
    public func lastLaunch() throws(StorageError) -> LaunchRecord? {
        try driver.row(.lastLaunch, []) { LaunchRecord(launchedAt: $0.date(0), worker: $0.string(1)) }
    }

    // MARK: Requests

    /// Requests taken out of the schedule, oldest first; `nil` matches everything.
    public func discardedTaskRequests(identifier: String? = nil, scope: String? = nil) throws(StorageError)
        -> [DiscardedTaskRequest]
    {
        try driver.rows(.discardedTaskRequests, [identifier, scope]) { row in
            guard let request = TaskRequestRecord(row: row, readingLastError: true),
                let cause = DiscardCause(rawValue: row.string(13))
            else { return nil }
            return DiscardedTaskRequest(request: request, cause: cause, discardedAt: row.date(14))
        }
    }

    /// Discarded requests by identifier and cause.
    public func discardedTaskRequestCounts() throws(StorageError) -> [String: DiscardedTaskRequestCounts] {
        let counts = try driver.rows(.discardedTaskRequestCounts, []) { row in
            (row.string(0), DiscardedTaskRequestCounts(attempts: row.int(1), cancelled: row.int(2)))
        }
        return Dictionary(counts, uniquingKeysWith: { $1 })
    }

    /// Takes the pending requests that match out of the schedule as cancelled (`nil` matches every
    /// identifier or scope; `ids` only those requests). A cancelled chain stays stopped — a launch
    /// does not start it again — until `retryDiscardedTaskRequests` puts it back. A running request
    /// is left to finish its run; it is counted, not cancelled.
    public func cancelTaskRequests(ids: [Int64]?, identifier: String?, scope: String?) throws(StorageError)
        -> TaskRequestCancellation
    {
        try write { () throws(StorageError) in
            var result = TaskRequestCancellation()
            let matching = try driver.rows(.matchingTaskRequests, [ids.map(SQLValue.integers), identifier, scope]) {
                ($0.int64(0), $0.bool(1))
            }
            for (id, running) in matching {
                if running { result.running.append(id) } else { result.cancelled.append(id) }
            }
            try discardRequests(result.cancelled, error: nil, cause: .cancelled)
            return result
        }
    }

    /// Puts discarded requests back into the schedule, due now with no attempts counted: those with
    /// the given request ids (either cause), or else every request discarded after its last
    /// attempt that matches `identifier` and `scope`. Where the chain has a pending request already,
    /// that request is made due now instead of adding a second. Returns the request ids put back.
    public func retryDiscardedTaskRequests(ids: [Int64]?, identifier: String?, scope: String?) throws(StorageError)
        -> [Int64]
    {
        try write { () throws(StorageError) in
            var chains: [String: [SQLValue]] = [:]
            let taken = try driver.rows(.takeDiscardedTaskRequests, [ids.map(SQLValue.integers), identifier, scope]) {
                row in
                // A chain discarded twice is put back once.
                chains[row.string(1) + "\u{0}" + row.string(2)] = [
                    .text(row.string(1)), .text(row.string(2)), .text(row.string(3)), .boolean(row.bool(4)),
                    .boolean(row.bool(5)),
                ]
                return row.int64(0)
            }
            let rows = chains.sorted { $0.key < $1.key }.map(\.value)
            if !rows.isEmpty { try driver.run(.requeueTaskRequests, [SQLValue.rows(rows), now]) }
            return taken.sorted()
        }
    }

    /// Pending requests of `identifier` that have been due since `dueBefore` or earlier.
    public func overdueTaskRequests(identifier: String, dueBefore: Date) throws(StorageError) -> OverdueTaskRequests {
        try driver.row(.overdueTaskRequests, [identifier, dueBefore]) { row in
            OverdueTaskRequests(
                count: row.int(0), oldestDueAt: row.optionalDate(1), requiringExternalPower: row.int(2),
                requiringNetwork: row.int(3))
        } ?? OverdueTaskRequests()
    }

    // MARK: Dead letters

    /// Items that failed `WatchItem.maxAttempts` times, oldest first (of `user`, or of everyone when `nil`): those
    /// not requeued, and with `includeResolved` those requeued too.
    public func deadLetters(user: UserID? = nil, includeResolved: Bool = false) throws(StorageError) -> [DeadLetter] {
        try driver.rows(.deadLetters, [user, includeResolved], DeadLetter.init(row:))
    }

    /// Queues each dead letter that matches (by id, or every one of `user`, or every one) again as a
    /// new watch item with no attempts, and marks the dead letter resolved; in one transaction, three statements
    /// however many match. Returns the new item's id by dead letter id; a dead letter already requeued is left
    /// alone. The new items' ids rise with their dead letters'.
    public func requeueDeadLetters(ids: [Int64]?, user: UserID?) throws(StorageError) -> [Int64: Int64] {
        try write { () throws(StorageError) in
            let letters = try driver.rows(.unresolvedDeadLetters, [ids.map(SQLValue.integers), user]) { $0.int64(0) }
            guard !letters.isEmpty else { return [:] }
            var requeued: [Int64: Int64] = [:]
            try driver.forEachRow(.resolveDeadLetters, [SQLValue.integers(letters), now]) { row in
                requeued[row.int64(0)] = row.int64(1)
            }
            try driver.run(.requeueDeadLetters, [SQLValue.integers(letters), now])
            return requeued
        }
    }

    // MARK: Pruning

    /// Makes ready the run history's storage for the runs finishing on the day holding now and on the `days` − 1
    /// after it (PostgreSQL: their partitions, unless they exist; SQLite needs nothing). A launch calls it before it
    /// claims, so that its runs move into their day's partition as they finish, which pruning drops whole. Returns
    /// how many were created.
    @discardableResult
    public func prepareRunHistory(days: Int = 3) throws(StorageError) -> Int {
        guard backend == .postgresql else { return 0 }
        return try write { () throws(StorageError) in try driver.integer(.prepareTaskRunDays, [now, days]) }
    }

    /// Deletes history older than `before`: finished runs, acknowledged outbox messages, requeued dead letters and
    /// requests discarded after their last attempt, at most `limit` rows of each kind deleted one by one, oldest
    /// first. Each chain's latest finished run stays where status and history read it (`latest_task_runs`).
    /// Cancelled requests stay: they keep their chain stopped. Runs in one transaction: a crash part way leaves
    /// everything as it was.
    ///
    /// On PostgreSQL the run history is split by the UTC day its runs finished: each day that ended by `before` is
    /// dropped whole, however many runs it held (counted in `runs` from the planner's statistics), and only the
    /// runs of the default partition (the runs in progress, and those whose day had no partition) are deleted one
    /// by one. So a run is kept until the whole day it finished on is older than `before`: up to a day longer than
    /// on SQLite.
    public func pruneHistory(before: Date, limit: Int) throws(StorageError) -> PrunedHistory {
        precondition(limit > 0, "pruning removes at least one row of each kind")
        return try write { () throws(StorageError) in
            PrunedHistory(
                runs: try driver.integer(.dropTaskRunDays, [before]) + driver.run(.pruneRuns, [before, limit]),
                outboxMessages: try driver.run(.pruneOutbox, [before, limit]),
                deadLetters: try driver.run(.pruneDeadLetters, [before, limit]),
                discardedRequests: try driver.run(.pruneDiscardedTaskRequests, [before, limit]))
        }
    }
}

/// The latest launch.
public struct LaunchRecord: Sendable, Hashable {
    public var launchedAt: Date
    public var worker: String
}

/// Why a request left the schedule.
public enum DiscardCause: String, Sendable, Hashable, CaseIterable {
    /// Its last allowed attempt failed.
    case attempts
    /// An operator cancelled it.
    case cancelled
}

/// A request taken out of the schedule.
public struct DiscardedTaskRequest: Sendable, Hashable {
    /// The request as it was, with its attempts and last error.
    public var request: TaskRequestRecord
    public var cause: DiscardCause
    public var discardedAt: Date
}

/// Discarded requests of one identifier.
public struct DiscardedTaskRequestCounts: Sendable, Hashable {
    public var attempts = 0
    public var cancelled = 0

    public init(attempts: Int = 0, cancelled: Int = 0) {
        self.attempts = attempts
        self.cancelled = cancelled
    }
}

/// What `cancelTaskRequests(ids:identifier:scope:)` did.
public struct TaskRequestCancellation: Sendable, Hashable {
    /// Request ids taken out of the schedule.
    public var cancelled: [Int64] = []
    /// Request ids that were running and were left to finish.
    public var running: [Int64] = []
}

/// Pending requests of one identifier due since a given instant.
public struct OverdueTaskRequests: Sendable, Hashable {
    public var count = 0
    /// When the one that has waited longest became due.
    public var oldestDueAt: Date?
    public var requiringExternalPower = 0
    public var requiringNetwork = 0
}

/// Rows `pruneHistory` deleted, by kind.
public struct PrunedHistory: Sendable, Hashable {
    public var runs = 0
    public var outboxMessages = 0
    public var deadLetters = 0
    public var discardedRequests = 0

    public init(runs: Int = 0, outboxMessages: Int = 0, deadLetters: Int = 0, discardedRequests: Int = 0) {
        self.runs = runs
        self.outboxMessages = outboxMessages
        self.deadLetters = deadLetters
        self.discardedRequests = discardedRequests
    }

    public var total: Int { runs + outboxMessages + deadLetters + discardedRequests }
}

extension SQL {
    /// $1 launched_at, $2 worker: the record, unless a later launch's is there.
    static let recordLaunch = SQL(
        """
        INSERT INTO scheduler_launches (id, launched_at, worker) VALUES (1, $1, $2)
        ON CONFLICT (id) DO UPDATE SET launched_at = excluded.launched_at, worker = excluded.worker
        WHERE excluded.launched_at >= scheduler_launches.launched_at
        """)
    static let lastLaunch = SQL("SELECT launched_at, worker FROM scheduler_launches WHERE id = 1")

    /// $1 identifier or NULL, $2 scope or NULL: a request's columns (no lease), then last_error, cause and
    /// discarded_at, oldest first.
    static let discardedTaskRequests = SQL(
        """
        SELECT request_id, identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network,
            submitted_at, attempts, NULL, NULL, NULL, last_error, cause, discarded_at
        FROM discarded_task_requests
        WHERE ($1::text IS NULL OR identifier = $1::text) AND ($2::text IS NULL OR scope = $2::text)
        ORDER BY discarded_at, id
        """)

    /// Each identifier's requests discarded after their attempts, and cancelled.
    static let discardedTaskRequestCounts = SQL(
        """
        SELECT identifier, count(*) FILTER (WHERE cause = 'attempts'), count(*) FILTER (WHERE cause = 'cancelled')
        FROM discarded_task_requests GROUP BY identifier
        """)

    /// $1 ids (a list) or NULL, $2 identifier or NULL, $3 scope or NULL: each matching request's id and whether it
    /// is running, by id (PostgreSQL: locked, so a claim or a finish on another host waits for the change).
    static let matchingTaskRequests = SQL(
        """
        SELECT id, lease_owner IS NOT NULL FROM task_requests
        WHERE ($1::bigint[] IS NULL OR id = ANY($1::bigint[]))
            AND ($2::text IS NULL OR identifier = $2::text) AND ($3::text IS NULL OR scope = $3::text)
        ORDER BY id
        FOR UPDATE
        """)

    /// $1 request ids (a list) or NULL (then only those discarded after their attempts), $2 identifier or NULL,
    /// $3 scope or NULL: the discarded requests removed, as request_id, identifier, scope, kind,
    /// requires_external_power, requires_network.
    static let takeDiscardedTaskRequests = SQL(
        """
        DELETE FROM discarded_task_requests
        WHERE ($1::bigint[] IS NULL OR request_id = ANY($1::bigint[]))
            AND ($1::bigint[] IS NOT NULL OR cause = 'attempts')
            AND ($2::text IS NULL OR identifier = $2::text) AND ($3::text IS NULL OR scope = $3::text)
        RETURNING request_id, identifier, scope, kind, requires_external_power, requires_network
        """)

    /// $1 rows of (identifier, scope, kind, requires_external_power, requires_network), one per chain, $2 now: each
    /// pending and due now with no attempts; a pending request of the chain is moved up rather than joined by a
    /// second.
    static let requeueTaskRequests = SQL(
        """
        INSERT INTO task_requests (
            identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network, submitted_at)
        SELECT s.value ->> 0, s.value ->> 1, s.value ->> 2, $2::bigint, (s.value ->> 3)::boolean,
            (s.value ->> 4)::boolean, $2::bigint
        FROM json_array_elements($1::json) WITH ORDINALITY AS s (value, key) WHERE true ORDER BY s.key
        ON CONFLICT (identifier, scope) WHERE lease_owner IS NULL DO UPDATE SET
            earliest_begin_at = CASE WHEN task_requests.earliest_begin_at <= excluded.earliest_begin_at
                THEN task_requests.earliest_begin_at ELSE excluded.earliest_begin_at END,
            attempts = 0, last_error = NULL
        """)

    /// $1 identifier, $2 due before: pending requests due since then, the oldest due time, and how many need
    /// external power and the network.
    static let overdueTaskRequests = SQL(
        """
        SELECT count(*), min(coalesce(earliest_begin_at, submitted_at)),
            count(*) FILTER (WHERE requires_external_power), count(*) FILTER (WHERE requires_network)
        FROM task_requests
        WHERE identifier = $1 AND lease_owner IS NULL AND coalesce(earliest_begin_at, submitted_at) <= $2
        """)

    /// $1 user or NULL, $2 whether resolved ones too: `DeadLetter(row:)`'s columns, oldest first.
    static let deadLetters = SQL(
        """
        SELECT id, user_id, kind, payload, enqueued_at, attempts, last_error, failed_at, resolved_at, requeued_as
        FROM watch_dead_letters
        WHERE ($1::text IS NULL OR user_id = $1::text) AND ($2::boolean OR resolved_at IS NULL) ORDER BY id
        """)

    /// $1 ids (a list) or NULL, $2 user or NULL: the matching dead letters not requeued, by id (PostgreSQL:
    /// locked).
    static let unresolvedDeadLetters = SQL(
        """
        SELECT id FROM watch_dead_letters
        WHERE resolved_at IS NULL AND ($1::bigint[] IS NULL OR id = ANY($1::bigint[]))
            AND ($2::text IS NULL OR user_id = $2::text)
        ORDER BY id
        FOR UPDATE
        """)

    /// $1 dead letter ids (a list), $2 resolved_at: each resolved, with the id of the watch item that takes its
    /// place, rising with the letters' ids; the letters' and the items' ids. On SQLite each id is above every watch
    /// item's and dead letter's, as every new item's (`SQLiteDriver.insertWatchItems`); on PostgreSQL the identity's
    /// next values, which it never hands out again.
    static let resolveDeadLetters = SQL(
        sqlite: """
            UPDATE watch_dead_letters SET resolved_at = $2, requeued_as = n.item
            FROM (
                SELECT value AS letter, row_number() OVER (ORDER BY value)
                    + max(coalesce((SELECT max(id) FROM watch_items), 0),
                        coalesce((SELECT max(id) FROM watch_dead_letters), 0)) AS item
                FROM json_each($1)) AS n
            WHERE watch_dead_letters.id = n.letter
            RETURNING id, requeued_as
            """,
        postgresql: """
            UPDATE watch_dead_letters AS d SET resolved_at = $2::bigint, requeued_as = n.item
            FROM (
                SELECT letter, nextval(pg_get_serial_sequence('watch_items', 'id')) AS item
                FROM (SELECT unnest($1::bigint[]) AS letter ORDER BY 1) AS sorted) AS n
            WHERE d.id = n.letter
            RETURNING d.id, d.requeued_as
            """)

    /// $1 dead letter ids (a list), $2 enqueued_at: each letter's watch item, under the id `resolveDeadLetters` gave
    /// it, of the letter's user, kind and payload, with no attempts.
    static let requeueDeadLetters = SQL(
        """
        INSERT INTO watch_items (id, user_id, kind, payload, enqueued_at, attempts)
        SELECT requeued_as, user_id, kind, payload, $2, 0 FROM watch_dead_letters WHERE id = ANY($1::bigint[])
        """)

    /// $1 before, $2 limit: finished runs, oldest first, each chain's latest among them (it is in
    /// `latest_task_runs` too). SQLite's planner walks the index of finished runs (`task_runs_by_finish`) without being
    /// told to, unlike a claim's. On PostgreSQL only the default partition's (`dropTaskRunDays` drops the days).
    static let pruneRuns = SQL(
        sqlite: """
            DELETE FROM task_runs WHERE id IN (
                SELECT id FROM task_runs WHERE finished_at IS NOT NULL AND finished_at < $1
                ORDER BY finished_at LIMIT $2)
            """,
        postgresql: """
            DELETE FROM task_runs_default WHERE id IN (
                SELECT id FROM task_runs_default WHERE finished_at IS NOT NULL AND finished_at < $1::bigint
                ORDER BY finished_at LIMIT $2::bigint)
            """)

    /// $1 before, $2 limit: acknowledged messages, oldest first.
    static let pruneOutbox = SQL(
        """
        DELETE FROM outbox WHERE id IN (
            SELECT id FROM outbox WHERE acknowledged_at IS NOT NULL AND acknowledged_at < $1
            ORDER BY acknowledged_at LIMIT $2)
        """)

    /// $1 before, $2 limit: requeued dead letters, oldest first.
    static let pruneDeadLetters = SQL(
        """
        DELETE FROM watch_dead_letters WHERE id IN (
            SELECT id FROM watch_dead_letters WHERE resolved_at IS NOT NULL AND resolved_at < $1
            ORDER BY resolved_at LIMIT $2)
        """)

    /// $1 before, $2 limit: requests discarded after their attempts, oldest first (cancelled ones keep their chain
    /// stopped).
    static let pruneDiscardedTaskRequests = SQL(
        """
        DELETE FROM discarded_task_requests WHERE id IN (
            SELECT id FROM discarded_task_requests WHERE cause = 'attempts' AND discarded_at < $1
            ORDER BY discarded_at LIMIT $2)
        """)
}
