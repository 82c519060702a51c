import Domain
import Foundation

/// The watch queue (DESIGN §2): items are applied by kind, each item's effect and its removal in one
/// transaction; an item that fails stays with its attempt count and error, and moves to the
/// dead-letter list after `WatchItem.maxAttempts` failures. Nothing leaves the queue any other way.
extension SQLiteDriver {
    /// Queues an item in its own transaction and returns its id.
    func enqueue(_ item: WatchSubmission) throws(StorageError) -> Int64 {
        try write { () throws(StorageError) in try apply(item) }
    }

    /// Queues the item unless it is queued already (the same user, kind, payload and occurrence:
    /// see `WatchSubmission.occurrence`); returns the id of the one queued.
    @discardableResult
    func apply(_ item: WatchSubmission) throws(StorageError) -> Int64 {
        try ensureUser(item.user)
        let id = try largestWatchItemID() + 1
        try runRows(.insertWatchItems, count: 1, CollectionOfOne(item)) {
            (item, statement, first) throws(StorageError) in try bind(item, id: id, to: statement, from: first)
        }
        if connection.changes == 1 || item.occurrence == nil { return id }
        return try connection.withStatement(
            "SELECT id FROM watch_items WHERE user_id = ?1 AND kind = ?2 AND payload = ?3 AND occurrence = ?4"
        ) { (statement) throws(StorageError) -> Int64 in
            try statement.bind(1, item.user.rawValue)
            try statement.bind(2, item.kind)
            try statement.bind(3, item.payload)
            try statement.bind(4, item.occurrence.map(Int64.init))
            return try statement.step() ? statement.int64(0) : id
        }
    }

    /// Queues a run of up to `rowsPerInsert` items in one statement and returns `true`; or, when the
    /// database refuses any of them, changes nothing and returns `false`. Their ids follow the largest
    /// id in use, in order, as `apply(_: WatchSubmission)` gives them one by one; an item queued
    /// already is skipped, its id unused.
    func insertWatchItems(_ items: ArraySlice<WatchSubmission>) throws(StorageError) -> Bool {
        try ensureUsers(items.lazy.map(\.user))
        let largest = try largestWatchItemID()
        let refusal = try constraintRefusal { () throws(StorageError) in
            try runRows(.insertWatchItems, count: items.count, items.enumerated()) {
                (numbered, statement, first) throws(StorageError) in
                try bind(numbered.element, id: largest + 1 + Int64(numbered.offset), to: statement, from: first)
            }
        }
        return refusal == nil
    }

    static let watchItemColumns: Int32 = 6

    static func insertWatchItems(rows: Int) -> String {
        """
        INSERT INTO watch_items (id, user_id, kind, payload, enqueued_at, occurrence)
        VALUES \(rowsOfParameters(columns: watchItemColumns, rows: rows))
        ON CONFLICT (user_id, kind, payload, occurrence) WHERE occurrence IS NOT NULL DO NOTHING
        """
    }

    /// The largest id a watch item or dead letter has; a new item's id is above it. Without that SQLite
    /// hands the largest id out again once its item has moved to the dead letters, and when that new
    /// item failed too, its dead letter could not take the id (https://www.sqlite.org/autoinc.html).
    /// Both maxima are read from primary keys; read it inside the write transaction that inserts.
    private func largestWatchItemID() throws(StorageError) -> Int64 {
        try connection.withStatement(
            """
            SELECT max(coalesce((SELECT max(id) FROM watch_items), 0),
                coalesce((SELECT max(id) FROM watch_dead_letters), 0))
            """
        ) { (statement) throws(StorageError) -> Int64 in
            _ = try statement.step()
            return statement.int64(0)
        }
    }

    /// `item`'s columns with `id`, as parameters `first` … `first + 5` in the order of the inserts' column list.
    private func bind(_ item: WatchSubmission, id: Int64, to statement: Statement, from first: Int32)
        throws(StorageError)
    {
        try statement.bind(first, id)
        try statement.bind(first + 1, item.user.rawValue)
        try statement.bind(first + 2, item.kind)
        try statement.bind(first + 3, item.payload)
        try statement.bind(first + 4, Store.milliseconds(item.enqueuedAt))
        try statement.bind(first + 5, item.occurrence.map(Int64.init))
    }

    /// Queued items of any of `kinds` (for one user, or all when `nil`), oldest first: at most
    /// `limit` of them, with ids after `after`, so a long queue is read page by page.
    ///
    /// `kinds` is bound as one JSON array. For one user, the (kind, user_id, id) index finds their
    /// few items. For everyone, the page is read along the primary key from `after` (`+kind` keeps
    /// SQLite off the kind index, which would collect and sort every remaining item of the kinds for
    /// each page), so draining a queue reads each item once.
    func watchItems(kinds: [String], user: UserID? = nil, after: Int64 = 0, limit: Int = Int(Int32.max))
        throws(StorageError) -> [WatchItem]
    {
        let names = JSONValue.array(kinds.map(JSONValue.string)).jsonText
        guard let user else {
            return try connection.withStatement(
                """
                SELECT id, user_id, kind, payload, enqueued_at, attempts, last_error FROM watch_items
                WHERE id > ?2 AND +kind IN (SELECT value FROM json_each(?1)) ORDER BY id LIMIT ?3
                """
            ) { (statement) throws(StorageError) in
                try statement.bind(1, names)
                try statement.bind(2, after)
                try statement.bind(3, limit)
                return try decodeWatchItems(statement)
            }
        }
        return try connection.withStatement(
            """
            SELECT id, user_id, kind, payload, enqueued_at, attempts, last_error FROM watch_items
            WHERE kind IN (SELECT value FROM json_each(?1)) AND user_id = ?2 AND id > ?3 ORDER BY id LIMIT ?4
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, names)
            try statement.bind(2, user.rawValue)
            try statement.bind(3, after)
            try statement.bind(4, limit)
            return try decodeWatchItems(statement)
        }
    }

    /// Every queued item, oldest first.
    func allWatchItems(user: UserID? = nil) throws(StorageError) -> [WatchItem] {
        try connection.withStatement(
            """
            SELECT id, user_id, kind, payload, enqueued_at, attempts, last_error FROM watch_items
            WHERE ?1 IS NULL OR user_id = ?1 ORDER BY id
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, user?.rawValue)
            return try decodeWatchItems(statement)
        }
    }

    /// Applies a watch item's effect and deletes the item, in one transaction. Returns `false`, and
    /// changes nothing, when the item is no longer queued (another worker applied it first).
    func complete(watchItem id: Int64, applying entry: UserEntry) throws(StorageError) -> Bool {
        try write { () throws(StorageError) in try stageCompletion(watchItem: id, applying: entry) }
    }

    /// `complete(watchItem:applying:)` inside an open `batch`, whose transaction then holds the
    /// item's effect and its removal together.
    func stageCompletion(watchItem id: Int64, applying entry: UserEntry) throws(StorageError) -> Bool {
        guard try deleteWatchItem(id) else { return false }
        try apply(entry)
        return true
    }

    /// `stageCompletion(watchItem:applying:)` for a page: the items still queued removed in one
    /// statement, then their entries applied in the page's order (`apply(_: [UserEntry])`).
    func stageCompletions(_ completions: [WatchCompletion]) throws(StorageError) -> Set<Int64> {
        let removed = try connection.withStatement(
            "DELETE FROM watch_items WHERE id IN (SELECT value FROM json_each(?1)) RETURNING id"
        ) { (delete) throws(StorageError) -> Set<Int64> in
            try delete.bind(1, "[" + completions.map { String($0.id) }.joined(separator: ",") + "]")
            var removed = Set<Int64>(minimumCapacity: completions.count)
            while try delete.step() { removed.insert(delete.int64(0)) }
            return removed
        }
        try apply(completions.filter { removed.contains($0.id) }.map(\.entry))
        return removed
    }

    /// Records a failed attempt at applying an item. After `WatchItem.maxAttempts` failures the item
    /// moves to the dead-letter list, in the same transaction. Returns `true` when it moved.
    func recordFailure(watchItem id: Int64, error message: String) throws(StorageError) -> Bool {
        try write { () throws(StorageError) in try stageFailure(watchItem: id, error: message) }
    }

    /// `recordFailure(watchItem:error:)` inside an open `batch`.
    func stageFailure(watchItem id: Int64, error message: String) throws(StorageError) -> Bool {
        let attempts = try connection.withStatement(
            "UPDATE watch_items SET attempts = attempts + 1, last_error = ?2 WHERE id = ?1 RETURNING attempts"
        ) { (update) throws(StorageError) -> Int? in
            try update.bind(1, id)
            try update.bind(2, message)
            return try update.step() ? update.int(0) : nil
        }
        guard let attempts, attempts >= WatchItem.maxAttempts else { return false }
        try connection.withStatement(
            """
            INSERT INTO watch_dead_letters (id, user_id, kind, payload, enqueued_at, attempts, last_error, failed_at)
            SELECT id, user_id, kind, payload, enqueued_at, attempts, last_error, ?2 FROM watch_items WHERE id = ?1
            """
        ) { (move) throws(StorageError) in
            try move.bind(1, id)
            try move.bind(2, nowMilliseconds)
            try move.run()
        }
        return try deleteWatchItem(id)
    }

    /// Items that failed `WatchItem.maxAttempts` times and were not requeued, oldest first.
    func deadLetters(user: UserID? = nil) throws(StorageError) -> [DeadLetter] {
        try connection.withStatement(
            """
            SELECT id, user_id, kind, payload, enqueued_at, attempts, last_error, failed_at FROM watch_dead_letters
            WHERE (?1 IS NULL OR user_id = ?1) AND resolved_at IS NULL ORDER BY id
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, user?.rawValue)
            var letters: [DeadLetter] = []
            while try statement.step() {
                guard let item = decodeWatchItem(statement) else { continue }
                letters.append(DeadLetter(item: item, failedAt: Store.date(milliseconds: statement.int64(7))))
            }
            return letters
        }
    }

    /// Deletes a queued item; `false` when it was already gone.
    private func deleteWatchItem(_ id: Int64) throws(StorageError) -> Bool {
        try connection.withStatement("DELETE FROM watch_items WHERE id = ?1") { (delete) throws(StorageError) in
            try delete.bind(1, id)
            try delete.run()
            return connection.changes == 1
        }
    }

    private func decodeWatchItems(_ statement: Statement) throws(StorageError) -> [WatchItem] {
        var items: [WatchItem] = []
        while try statement.step() {
            if let item = decodeWatchItem(statement) { items.append(item) }
        }
        return items
    }

    private func decodeWatchItem(_ statement: Statement) -> WatchItem? {
        guard let user = UserID(statement.string(1)) else { return nil }
        return WatchItem(
            id: statement.int64(0), user: user, kind: statement.string(2), payload: statement.string(3),
            enqueuedAt: Store.date(milliseconds: statement.int64(4)), attempts: statement.int(5),
            lastError: statement.optionalString(6))
    }
}
