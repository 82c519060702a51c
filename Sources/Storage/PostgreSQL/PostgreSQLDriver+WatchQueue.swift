import Domain
import Foundation

/// The watch queue (see `Store+WatchQueue.swift`). Completing an item deletes it first: of two
/// workers draining the same item, the second's DELETE finds nothing (it waits for the first's row
/// lock, then sees the row gone) and applies nothing.
extension PostgreSQLDriver {
    func enqueue(_ item: WatchSubmission) throws(StorageError) -> Int64 {
        try write { () throws(StorageError) in try apply(item) }
    }

    /// Queues an item unless it is queued already (the same user, kind, payload and occurrence:
    /// see `WatchSubmission.occurrence`): then it returns no row.
    static let insertWatchItem: StaticString = """
        INSERT INTO watch_items (user_id, kind, payload, enqueued_at, occurrence) VALUES ($1, $2, $3::json, $4, $5)
        ON CONFLICT (user_id, kind, md5(payload::text), occurrence) WHERE occurrence IS NOT NULL DO NOTHING
        RETURNING id
        """

    /// `insertWatchItem` for the staged items in one statement: parameters as its, each an array
    /// with one element per item. Ids follow the items' order (`ORDER BY` the position), and an
    /// item queued already, or twice in the chunk, is skipped as `insertWatchItem` skips it.
    static let bulkInsertWatchItems: StaticString = """
        INSERT INTO watch_items (user_id, kind, payload, enqueued_at, occurrence)
        SELECT user_id, kind, payload::json, enqueued_at, occurrence
        FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::integer[]) WITH ORDINALITY
            AS staged (user_id, kind, payload, enqueued_at, occurrence, position)
        ORDER BY position
        ON CONFLICT (user_id, kind, md5(payload::text), occurrence) WHERE occurrence IS NOT NULL DO NOTHING
        """

    func watchItemParameters(_ item: WatchSubmission) -> [String?] {
        [
            item.user.rawValue, item.kind, item.payload, .pg(Store.milliseconds(item.enqueuedAt)),
            item.occurrence.map(String.init),
        ]
    }

    @discardableResult
    func apply(_ item: WatchSubmission) throws(StorageError) -> Int64 {
        try flushStaged()
        try ensureUser(item.user)
        let inserted = try connection.query(PostgreSQLDriver.insertWatchItem, watchItemParameters(item))
        if inserted.count == 1 { return inserted.int64(0, 0) }
        let queued = try connection.query(
            """
            SELECT id FROM watch_items
            WHERE user_id = $1 AND kind = $2 AND md5(payload::text) = md5($3::text) AND occurrence = $4
            """, [item.user.rawValue, item.kind, item.payload, item.occurrence.map(String.init)])
        return queued.count == 1 ? queued.int64(0, 0) : 0
    }

    func watchItems(kinds: [String], user: UserID?, after: Int64, limit: Int) throws(StorageError) -> [WatchItem] {
        let rows = try connection.query(
            """
            SELECT id, user_id, kind, payload::text, enqueued_at, attempts, last_error FROM watch_items
            WHERE kind = ANY($1::text[]) AND ($2::text IS NULL OR user_id = $2::text) AND id > $3 ORDER BY id LIMIT $4
            """, [PostgreSQLDriver.arrayLiteral(kinds), user?.rawValue, .pg(after), .pg(limit)])
        return (0..<rows.count).compactMap { decodeWatchItem(rows, $0) }
    }

    func allWatchItems(user: UserID?) throws(StorageError) -> [WatchItem] {
        let rows = try connection.query(
            """
            SELECT id, user_id, kind, payload::text, enqueued_at, attempts, last_error FROM watch_items
            WHERE $1::text IS NULL OR user_id = $1::text ORDER BY id
            """, [user?.rawValue])
        return (0..<rows.count).compactMap { decodeWatchItem(rows, $0) }
    }

    func complete(watchItem id: Int64, applying entry: UserEntry) throws(StorageError) -> Bool {
        try write { () throws(StorageError) in
            guard try deleteWatchItem(id) else { return false }
            try apply(DayWrite(entry))
            return true
        }
    }

    /// Inside a batch the item's entry is staged with the batch's other days (and so committed with
    /// the item's removal); the removal itself is immediate, so of two workers draining one item
    /// only the one whose DELETE found it applies it.
    func stageCompletion(watchItem id: Int64, applying entry: UserEntry) throws(StorageError) -> Bool {
        guard try deleteWatchItem(id) else { return false }
        try queue(DayWrite(entry))
        return true
    }

    /// The page's items still queued are locked in id order (two workers draining overlapping
    /// pages wait for each other instead of deadlocking), removed, and their entries staged in the
    /// page's order: one statement for the page.
    func stageCompletions(_ completions: [WatchCompletion]) throws(StorageError) -> Set<Int64> {
        guard !completions.isEmpty else { return [] }
        let deleted = try connection.query(
            """
            DELETE FROM watch_items WHERE id IN (
                SELECT id FROM watch_items WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE)
            RETURNING id
            """, [PostgreSQLDriver.arrayLiteral(completions.map { .pg($0.id) })])
        let removed = Set((0..<deleted.count).map { deleted.int64($0, 0) })
        for completion in completions where removed.contains(completion.id) {
            try queue(DayWrite(completion.entry))
        }
        return removed
    }

    func recordFailure(watchItem id: Int64, error message: String) throws(StorageError) -> Bool {
        try write { () throws(StorageError) in try stageFailure(watchItem: id, error: message) }
    }

    func stageFailure(watchItem id: Int64, error message: String) throws(StorageError) -> Bool {
        try flushStaged()
        let updated = try connection.query(
            "UPDATE watch_items SET attempts = attempts + 1, last_error = $2 WHERE id = $1 RETURNING attempts",
            [.pg(id), message])
        guard updated.count > 0, updated.int(0, 0) >= WatchItem.maxAttempts else { return false }
        try connection.query(
            """
            INSERT INTO watch_dead_letters (id, user_id, kind, payload, enqueued_at, attempts, last_error, failed_at)
            SELECT id, user_id, kind, payload, enqueued_at, attempts, last_error, $2 FROM watch_items WHERE id = $1
            """, [.pg(id), .pg(nowMilliseconds)])
        return try deleteWatchItem(id)
    }

    func deadLetters(user: UserID?) throws(StorageError) -> [DeadLetter] {
        let rows = try connection.query(
            """
            SELECT id, user_id, kind, payload::text, enqueued_at, attempts, last_error, failed_at
            FROM watch_dead_letters
            WHERE ($1::text IS NULL OR user_id = $1::text) AND resolved_at IS NULL ORDER BY id
            """, [user?.rawValue])
        return (0..<rows.count).compactMap { row in
            decodeWatchItem(rows, row).map {
                DeadLetter(item: $0, failedAt: Store.date(milliseconds: rows.int64(row, 7)))
            }
        }
    }

    private func deleteWatchItem(_ id: Int64) throws(StorageError) -> Bool {
        try connection.query("DELETE FROM watch_items WHERE id = $1", [.pg(id)]).affected == 1
    }

    private func decodeWatchItem(_ rows: PostgreSQLRows, _ row: Int) -> WatchItem? {
        guard let user = UserID(rows.string(row, 1)) else { return nil }
        return WatchItem(
            id: rows.int64(row, 0), user: user, kind: rows.string(row, 2), payload: rows.string(row, 3),
            enqueuedAt: Store.date(milliseconds: rows.int64(row, 4)), attempts: rows.int(row, 5),
            lastError: rows.optionalString(row, 6))
    }
}
