public import Domain
public import Foundation

/// The watch queue (DESIGN §2): items are applied by kind, each item's effect and its removal in one
/// transaction; an item that fails stays with its attempt count and error, and moves to the
/// dead-letter list after `WatchItem.maxAttempts` failures. Nothing leaves the queue any other way.
extension Store {
    /// Queues an item in its own transaction and returns its id: the id of the one queued already when it is
    /// (the same user, kind, payload and occurrence: see `WatchSubmission.occurrence`).
    @discardableResult
    public func enqueue(_ item: WatchSubmission) throws(StorageError) -> Int64 {
        try write { () throws(StorageError) in
            try ensureUser(item.user)
            if let id = try driver.insertWatchItems([item]).first { return id }
            return try driver.row(.queuedWatchItem, [item.user, item.kind, item.payload, item.occurrence]) {
                $0.int64(0)
            } ?? 0
        }
    }

    /// Queued items of any of `kinds` (for one user, or all when `nil`), oldest first: at most
    /// `limit` of them, with ids after `after`, so a long queue is read page by page.
    public func watchItems(
        kinds: [String], user: UserID? = nil, after: Int64 = 0, limit: Int = Int(Int32.max)
    ) throws(StorageError) -> [WatchItem] {
        try driver.watchItems(kinds: kinds, user: user, after: after, limit: limit)
    }

    /// Every queued item, oldest first.
    public func allWatchItems(user: UserID? = nil) throws(StorageError) -> [WatchItem] {
        try driver.rows(.allWatchItems, [user], WatchItem.init(row:))
    }

    /// Applies a watch item's effect and deletes the item, in one transaction. Returns `false`, and
    /// changes nothing, when the item is no longer queued (another worker applied it first).
    public func complete(watchItem id: Int64, applying entry: UserEntry) throws(StorageError) -> Bool {
        try write { () throws(StorageError) in
            try stageCompletions([WatchCompletion(id: id, entry: entry)]).contains(id)
        }
    }

    /// `complete(watchItem:applying:)` for a page of items, in their order, inside an open `batch` (whose transaction
    /// then holds the items' effects and their removal together): each item still queued is removed and its entry
    /// staged, and its id is in the set returned; one another worker applied first changes nothing. The page's items
    /// are removed in one statement (on PostgreSQL locked in id order first, so two workers draining overlapping
    /// pages wait for each other instead of deadlocking: of two workers draining one item, only the one whose DELETE
    /// found it applies it), then their entries written many to a statement (`upsertEntries`).
    public func stageCompletions(_ completions: [WatchCompletion]) throws(StorageError) -> Set<Int64> {
        guard !completions.isEmpty else { return [] }
        let removed = Set(
            try driver.rows(.deleteWatchItems, [SQLValue.integers(completions.map(\.id))]) { $0.int64(0) })
        try upsertEntries(completions.filter { removed.contains($0.id) }.map(\.entry))
        return removed
    }

    /// Writes `entries` in their order: runs of up to `driver.rowsPerStatement` entries that clear no field (what a
    /// watch item's payload holds), each user-day at most once, take one statement each
    /// (`StorageDriver.upsertEntries`); any other entry takes `upsertDay`.
    private func upsertEntries(_ entries: [UserEntry]) throws(StorageError) {
        let now = now
        var keys = Set<DayKey>()
        var start = 0
        while start < entries.count {
            var end = start
            keys.removeAll(keepingCapacity: true)
            while end < entries.count, end - start < driver.rowsPerStatement, entries[end].clearsNothing,
                keys.insert(DayKey(user: entries[end].user, day: entries[end].day)).inserted
            {
                end += 1
            }
            if end - start >= 2 {
                try ensureUsers(entries[start..<end].lazy.map(\.user))
                for index in try driver.upsertEntries(entries[start..<end], at: now) {
                    try upsert(DayWrite(entries[index]))
                }
            } else {
                end = start + 1
                try upsert(DayWrite(entries[start]))
            }
            start = end
        }
    }

    /// Records a failed attempt at applying an item. After `WatchItem.maxAttempts` failures the item
    /// moves to the dead-letter list, in the same transaction. Returns `true` when it moved.
    @discardableResult
    public func recordFailure(watchItem id: Int64, error message: String) throws(StorageError) -> Bool {
        try write { () throws(StorageError) in try stageFailure(watchItem: id, error: message) }
    }

    /// `recordFailure(watchItem:error:)` inside an open `batch`.
    @discardableResult
    public func stageFailure(watchItem id: Int64, error message: String) throws(StorageError) -> Bool {
        let attempts = try driver.row(.recordWatchFailure, [id, message]) { $0.int(0) }
        guard let attempts, attempts >= WatchItem.maxAttempts else { return false }
        try driver.run(.deadLetterWatchItem, [id, now])
        return try !driver.rows(.deleteWatchItems, [SQLValue.integers([id])]) { $0.int64(0) }.isEmpty
    }
}

extension StorageDriver {
    /// `Store.watchItems(kinds:user:after:limit:)`, on a store's or a reader's connection. For one user, the
    /// (kind, user_id, id) index finds their few items; for everyone, the page is read along the primary key from
    /// `after`, so draining a queue reads each item once.
    func watchItems(kinds: [String], user: UserID?, after: Int64, limit: Int) throws(StorageError) -> [WatchItem] {
        if let user {
            return try rows(.watchItemsOfUser, [SQLValue.texts(kinds), user, after, limit], WatchItem.init(row:))
        }
        return try rows(.watchItemsOfEveryone, [SQLValue.texts(kinds), after, limit], WatchItem.init(row:))
    }
}

extension WatchItem {
    /// A row of `id, user_id, kind, payload, enqueued_at, attempts, last_error`.
    init?(row: any RowReader) {
        guard let user = UserID(row.string(1)) else { return nil }
        self.init(
            id: row.int64(0), user: user, kind: row.string(2), payload: row.string(3), enqueuedAt: row.date(4),
            attempts: row.int(5), lastError: row.optionalString(6))
    }
}

/// A queued item's id and the entry applying it writes (`Store.stageCompletions`).
public struct WatchCompletion: Sendable, Hashable {
    public var id: Int64
    public var entry: UserEntry

    public init(id: Int64, entry: UserEntry) {
        self.id = id
        self.entry = entry
    }
}

/// A watch item that failed too often to keep retrying; kept for a person to look at.
public struct DeadLetter: Sendable, Hashable {
    public var item: WatchItem
    public var failedAt: Date
    /// When an operator requeued it (`pipeline dead-letters requeue`); `nil` while it waits.
    public var resolvedAt: Date? = nil
    /// The watch item that took its place when it was requeued.
    public var requeuedAs: Int64? = nil
}

extension DeadLetter {
    /// A row of `WatchItem(row:)`'s columns, then `failed_at, resolved_at, requeued_as`.
    init?(row: any RowReader) {
        guard let item = WatchItem(row: row) else { return nil }
        self.init(
            item: item, failedAt: row.date(7), resolvedAt: row.optionalDate(8), requeuedAs: row.optionalInt64(9))
    }
}

extension SQL {
    /// $1 user, $2 kind, $3 payload, $4 occurrence: the id of the item queued with that identity.
    static let queuedWatchItem = SQL(
        sqlite: "SELECT id FROM watch_items WHERE user_id = $1 AND kind = $2 AND payload = $3 AND occurrence = $4",
        postgresql: """
            SELECT id FROM watch_items
            WHERE user_id = $1 AND kind = $2 AND md5(payload::text) = md5($3::text) AND occurrence = $4
            """)
    /// $1 kinds (a list), $2 after, $3 limit: `WatchItem(row:)`'s columns, in id order. (`+kind` keeps SQLite off
    /// the kind index, which would collect and sort every remaining item of the kinds for each page.)
    static let watchItemsOfEveryone = SQL(
        sqlite: """
            SELECT id, user_id, kind, payload, enqueued_at, attempts, last_error FROM watch_items
            WHERE id > $2 AND +kind IN (SELECT value FROM json_each($1)) ORDER BY id LIMIT $3
            """,
        postgresql: """
            SELECT id, user_id, kind, payload, enqueued_at, attempts, last_error FROM watch_items
            WHERE kind = ANY($1::text[]) AND id > $2 ORDER BY id LIMIT $3
            """)
    /// $1 kinds (a list), $2 user, $3 after, $4 limit: as `watchItemsOfEveryone`.
    static let watchItemsOfUser = SQL(
        """
        SELECT id, user_id, kind, payload, enqueued_at, attempts, last_error FROM watch_items
        WHERE kind = ANY($1::text[]) AND user_id = $2 AND id > $3 ORDER BY id LIMIT $4
        """)
    /// $1 user or NULL: as `watchItemsOfEveryone`.
    static let allWatchItems = SQL(
        """
        SELECT id, user_id, kind, payload, enqueued_at, attempts, last_error FROM watch_items
        WHERE $1::text IS NULL OR user_id = $1::text ORDER BY id
        """)
    /// $1 ids (a list): the ids of the items removed.
    static let deleteWatchItems = SQL(
        sqlite: "DELETE FROM watch_items WHERE id IN (SELECT value FROM json_each($1)) RETURNING id",
        postgresql: """
            DELETE FROM watch_items WHERE id IN (
                SELECT id FROM watch_items WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE)
            RETURNING id
            """)
    /// $1 id, $2 error: the item's attempts after this one.
    static let recordWatchFailure = SQL(
        "UPDATE watch_items SET attempts = attempts + 1, last_error = $2 WHERE id = $1 RETURNING attempts")
    /// $1 id, $2 failed_at: a copy of the item among the dead letters (the caller removes the item).
    static let deadLetterWatchItem = SQL(
        """
        INSERT INTO watch_dead_letters (id, user_id, kind, payload, enqueued_at, attempts, last_error, failed_at)
        SELECT id, user_id, kind, payload, enqueued_at, attempts, last_error, $2 FROM watch_items WHERE id = $1
        """)
}
