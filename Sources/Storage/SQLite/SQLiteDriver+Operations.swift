import Domain
import Foundation

/// The operator's side of the schedule on SQLite (see `Store+Operations.swift`).
extension SQLiteDriver {
    // MARK: Launches

    func recordLaunch(worker: String) throws(StorageError) {
        try write { () throws(StorageError) in
            try connection.withStatement(
                """
                INSERT INTO scheduler_launches (id, launched_at, worker) VALUES (1, ?1, ?2)
                ON CONFLICT (id) DO UPDATE SET launched_at = excluded.launched_at, worker = excluded.worker
                WHERE excluded.launched_at >= scheduler_launches.launched_at
                """
            ) { (statement) throws(StorageError) in
                try statement.bind(1, nowMilliseconds)
                try statement.bind(2, worker)
                try statement.run()
            }
        }
    }

    func lastLaunch() throws(StorageError) -> LaunchRecord? {
        try connection.withStatement("SELECT launched_at, worker FROM scheduler_launches WHERE id = 1") {
            (statement) throws(StorageError) in
            try statement.step()
                ? LaunchRecord(launchedAt: Store.date(milliseconds: statement.int64(0)), worker: statement.string(1))
                : nil
        }
    }

    // MARK: Requests

    func discardedTaskRequests(identifier: String?, scope: String?) throws(StorageError) -> [DiscardedTaskRequest] {
        try connection.withStatement(
            """
            SELECT request_id, identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network,
                submitted_at, attempts, NULL, NULL, NULL, last_error, cause, discarded_at
            FROM discarded_task_requests
            WHERE (?1 IS NULL OR identifier = ?1) AND (?2 IS NULL OR scope = ?2)
            ORDER BY discarded_at, id
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, identifier)
            try statement.bind(2, scope)
            var discarded: [DiscardedTaskRequest] = []
            while try statement.step() {
                guard var request = decodeRequest(statement, from: 0),
                    let cause = DiscardCause(rawValue: statement.string(13))
                else { continue }
                request.lastError = statement.optionalString(12)
                discarded.append(
                    DiscardedTaskRequest(
                        request: request, cause: cause, discardedAt: Store.date(milliseconds: statement.int64(14))))
            }
            return discarded
        }
    }

    func discardedTaskRequestCounts() throws(StorageError) -> [String: DiscardedTaskRequestCounts] {
        try connection.withStatement(
            """
            SELECT identifier, sum(cause = 'attempts'), sum(cause = 'cancelled')
            FROM discarded_task_requests GROUP BY identifier
            """
        ) { (statement) throws(StorageError) in
            var counts: [String: DiscardedTaskRequestCounts] = [:]
            while try statement.step() {
                counts[statement.string(0)] = DiscardedTaskRequestCounts(
                    attempts: statement.int(1), cancelled: statement.int(2))
            }
            return counts
        }
    }

    /// Moves request `id` into the discarded requests, inside the caller's transaction.
    func discardRequest(_ id: Int64, error: String?, cause: String) throws(StorageError) {
        try connection.withStatement(
            """
            INSERT INTO discarded_task_requests (
                request_id, identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network,
                submitted_at, attempts, last_error, cause, discarded_at)
            SELECT id, identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network,
                submitted_at, attempts, coalesce(?2, last_error), ?3, ?4
            FROM task_requests WHERE id = ?1
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, id)
            try statement.bind(2, error)
            try statement.bind(3, cause)
            try statement.bind(4, nowMilliseconds)
            try statement.run()
        }
        try connection.withStatement("DELETE FROM task_requests WHERE id = ?1") { (statement) throws(StorageError) in
            try statement.bind(1, id)
            try statement.run()
        }
    }

    func cancelTaskRequests(ids: [Int64]?, identifier: String?, scope: String?) throws(StorageError)
        -> TaskRequestCancellation
    {
        try write { () throws(StorageError) in
            let matching = try connection.withStatement(
                """
                SELECT id, lease_owner IS NOT NULL FROM task_requests
                WHERE (?1 IS NULL OR id IN (SELECT value FROM json_each(?1)))
                    AND (?2 IS NULL OR identifier = ?2) AND (?3 IS NULL OR scope = ?3)
                ORDER BY id
                """
            ) { (statement) throws(StorageError) -> [(id: Int64, running: Bool)] in
                try statement.bind(1, ids.map(SQLiteDriver.jsonIntegers))
                try statement.bind(2, identifier)
                try statement.bind(3, scope)
                var rows: [(id: Int64, running: Bool)] = []
                while try statement.step() { rows.append((statement.int64(0), statement.int(1) == 1)) }
                return rows
            }
            var result = TaskRequestCancellation()
            for row in matching {
                if row.running {
                    result.running.append(row.id)
                } else {
                    try discardRequest(row.id, error: nil, cause: DiscardCause.cancelled.rawValue)
                    result.cancelled.append(row.id)
                }
            }
            return result
        }
    }

    func retryDiscardedTaskRequests(ids: [Int64]?, identifier: String?, scope: String?) throws(StorageError)
        -> [Int64]
    {
        try write { () throws(StorageError) in
            let chosen = try connection.withStatement(
                """
                DELETE FROM discarded_task_requests
                WHERE (?1 IS NULL OR request_id IN (SELECT value FROM json_each(?1)))
                    AND (?1 IS NOT NULL OR cause = 'attempts')
                    AND (?2 IS NULL OR identifier = ?2) AND (?3 IS NULL OR scope = ?3)
                RETURNING request_id, identifier, scope, kind, requires_external_power, requires_network
                """
            ) { (statement) throws(StorageError) -> [(Int64, String, String, String, Bool, Bool)] in
                try statement.bind(1, ids.map(SQLiteDriver.jsonIntegers))
                try statement.bind(2, identifier)
                try statement.bind(3, scope)
                var rows: [(Int64, String, String, String, Bool, Bool)] = []
                while try statement.step() {
                    rows.append(
                        (
                            statement.int64(0), statement.string(1), statement.string(2), statement.string(3),
                            statement.int(4) == 1, statement.int(5) == 1
                        ))
                }
                return rows
            }
            for (_, identifier, scope, kind, power, network) in chosen {
                // Due now: a pending request of the chain is moved up rather than joined by a second.
                try connection.withStatement(
                    """
                    INSERT INTO task_requests (
                        identifier, scope, kind, earliest_begin_at, requires_external_power, requires_network,
                        submitted_at)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?4)
                    ON CONFLICT (identifier, scope) WHERE lease_owner IS NULL DO UPDATE SET
                        earliest_begin_at = min(coalesce(earliest_begin_at, excluded.earliest_begin_at),
                            excluded.earliest_begin_at),
                        attempts = 0, last_error = NULL
                    """
                ) { (statement) throws(StorageError) in
                    try statement.bind(1, identifier)
                    try statement.bind(2, scope)
                    try statement.bind(3, kind)
                    try statement.bind(4, nowMilliseconds)
                    try statement.bind(5, power)
                    try statement.bind(6, network)
                    try statement.run()
                }
            }
            return chosen.map(\.0).sorted()
        }
    }

    func overdueTaskRequests(identifier: String, dueBefore: Date) throws(StorageError) -> OverdueTaskRequests {
        try connection.withStatement(
            """
            SELECT count(*), min(coalesce(earliest_begin_at, submitted_at)), coalesce(sum(requires_external_power), 0),
                coalesce(sum(requires_network), 0)
            FROM task_requests
            WHERE identifier = ?1 AND lease_owner IS NULL AND coalesce(earliest_begin_at, submitted_at) <= ?2
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, identifier)
            try statement.bind(2, Store.milliseconds(dueBefore))
            guard try statement.step() else { return OverdueTaskRequests() }
            return OverdueTaskRequests(
                count: statement.int(0),
                oldestDueAt: statement.isNull(1) ? nil : Store.date(milliseconds: statement.int64(1)),
                requiringExternalPower: statement.int(2), requiringNetwork: statement.int(3))
        }
    }

    // MARK: Dead letters

    func deadLetters(user: UserID?, includeResolved: Bool) throws(StorageError) -> [DeadLetter] {
        try connection.withStatement(
            """
            SELECT id, user_id, kind, payload, enqueued_at, attempts, last_error, failed_at, resolved_at, requeued_as
            FROM watch_dead_letters
            WHERE (?1 IS NULL OR user_id = ?1) AND (?2 OR resolved_at IS NULL) ORDER BY id
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, user?.rawValue)
            try statement.bind(2, includeResolved)
            var letters: [DeadLetter] = []
            while try statement.step() {
                guard let user = UserID(statement.string(1)) else { continue }
                let item = WatchItem(
                    id: statement.int64(0), user: user, kind: statement.string(2), payload: statement.string(3),
                    enqueuedAt: Store.date(milliseconds: statement.int64(4)), attempts: statement.int(5),
                    lastError: statement.optionalString(6))
                letters.append(
                    DeadLetter(
                        item: item, failedAt: Store.date(milliseconds: statement.int64(7)),
                        resolvedAt: statement.isNull(8) ? nil : Store.date(milliseconds: statement.int64(8)),
                        requeuedAs: statement.isNull(9) ? nil : statement.int64(9)))
            }
            return letters
        }
    }

    func requeueDeadLetters(ids: [Int64]?, user: UserID?) throws(StorageError) -> [Int64: Int64] {
        try write { () throws(StorageError) in
            let letters = try connection.withStatement(
                """
                SELECT id FROM watch_dead_letters
                WHERE resolved_at IS NULL AND (?1 IS NULL OR id IN (SELECT value FROM json_each(?1)))
                    AND (?2 IS NULL OR user_id = ?2)
                ORDER BY id
                """
            ) { (statement) throws(StorageError) -> [Int64] in
                try statement.bind(1, ids.map(SQLiteDriver.jsonIntegers))
                try statement.bind(2, user?.rawValue)
                var letters: [Int64] = []
                while try statement.step() { letters.append(statement.int64(0)) }
                return letters
            }
            var requeued: [Int64: Int64] = [:]
            for letter in letters {
                // An id above every watch item's and dead letter's, as `apply(_:)` gives.
                let item = try connection.withStatement(
                    """
                    INSERT INTO watch_items (id, user_id, kind, payload, enqueued_at, attempts)
                    SELECT max(coalesce((SELECT max(id) FROM watch_items), 0),
                            coalesce((SELECT max(id) FROM watch_dead_letters), 0)) + 1,
                        user_id, kind, payload, ?2, 0
                    FROM watch_dead_letters WHERE id = ?1
                    RETURNING id
                    """
                ) { (statement) throws(StorageError) -> Int64? in
                    try statement.bind(1, letter)
                    try statement.bind(2, nowMilliseconds)
                    return try statement.step() ? statement.int64(0) : nil
                }
                guard let item else { continue }
                try connection.withStatement(
                    "UPDATE watch_dead_letters SET resolved_at = ?2, requeued_as = ?3 WHERE id = ?1"
                ) { (statement) throws(StorageError) in
                    try statement.bind(1, letter)
                    try statement.bind(2, nowMilliseconds)
                    try statement.bind(3, item)
                    try statement.run()
                }
                requeued[letter] = item
            }
            return requeued
        }
    }

    // MARK: Pruning

    func pruneHistory(before: Date, limit: Int) throws(StorageError) -> PrunedHistory {
        try write { () throws(StorageError) in
            let cutoff = Store.milliseconds(before)
            func delete(_ sql: StaticString) throws(StorageError) -> Int {
                try connection.withStatement(sql) { (statement) throws(StorageError) in
                    try statement.bind(1, cutoff)
                    try statement.bind(2, limit)
                    try statement.run()
                    return connection.changes
                }
            }
            var pruned = PrunedHistory()
            // A run is kept while it is the latest finished one of its task and scope: status reads it
            // (last success, broken chains, chains never started).
            pruned.runs = try delete(
                """
                DELETE FROM task_runs WHERE id IN (
                    SELECT id FROM task_runs AS run INDEXED BY task_runs_by_finish
                    WHERE finished_at IS NOT NULL AND finished_at < ?1
                        AND EXISTS (
                            SELECT 1 FROM task_runs AS later
                            WHERE later.identifier = run.identifier AND later.scope = run.scope
                                AND later.id > run.id AND later.finished_at IS NOT NULL)
                    ORDER BY finished_at LIMIT ?2)
                """)
            pruned.outboxMessages = try delete(
                """
                DELETE FROM outbox WHERE id IN (
                    SELECT id FROM outbox WHERE acknowledged_at IS NOT NULL AND acknowledged_at < ?1
                    ORDER BY acknowledged_at LIMIT ?2)
                """)
            pruned.deadLetters = try delete(
                """
                DELETE FROM watch_dead_letters WHERE id IN (
                    SELECT id FROM watch_dead_letters WHERE resolved_at IS NOT NULL AND resolved_at < ?1
                    ORDER BY resolved_at LIMIT ?2)
                """)
            pruned.discardedRequests = try delete(
                """
                DELETE FROM discarded_task_requests WHERE id IN (
                    SELECT id FROM discarded_task_requests WHERE cause = 'attempts' AND discarded_at < ?1
                    ORDER BY discarded_at LIMIT ?2)
                """)
            return pruned
        }
    }

    /// A JSON array of integers, for `IN (SELECT value FROM json_each(?))`: numbers, so they compare
    /// equal to integer columns.
    static func jsonIntegers(_ values: [Int64]) -> String {
        "[" + values.map(String.init).joined(separator: ",") + "]"
    }
}
