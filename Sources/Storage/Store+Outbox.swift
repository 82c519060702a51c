public import Domain
public import Foundation

/// The outbox (DESIGN §6): messages for users waiting for a sender. At most one message per user,
/// kind and day, enforced by a UNIQUE constraint, so a task that runs twice on a day queues one.
extension Store {
    /// Queues a message unless the user already has one of `kind` for `day`, in its own transaction.
    /// Returns the new message's id, or `nil` when one existed (it is left as it was).
    @discardableResult
    public func post(_ message: NewOutboxMessage) throws(StorageError) -> Int64? {
        try write { () throws(StorageError) in try insertOutboxMessages([message]).first }
    }

    /// `post(_:)` for several messages, in the open transaction, in two statements whatever their number (a batch
    /// of runs' `TaskRunWrite.post`s): of two for one user, kind and day, the first is queued. Returns the ids of
    /// the messages queued.
    func insertOutboxMessages(_ messages: [NewOutboxMessage]) throws(StorageError) -> [Int64] {
        guard !messages.isEmpty else { return [] }
        try ensureUsers(messages.map(\.user))
        let rows = messages.map {
            [SQLValue.text($0.user.rawValue), .text($0.kind), .text($0.day.description), .text($0.body)]
        }
        return try driver.rows(.postOutboxMessages, [SQLValue.rows(rows), now]) { $0.int64(0) }
    }

    /// Whether the user has a message of `kind` for `day`, acknowledged or not.
    public func hasOutboxMessage(user: UserID, kind: String, day: Day) throws(StorageError) -> Bool {
        try driver.exists(.outboxMessage, [user, kind, day])
    }

    /// Messages oldest first: the unacknowledged ones, or all with `includeAcknowledged`. `nil`
    /// matches every user.
    public func outboxMessages(user: UserID? = nil, includeAcknowledged: Bool = false) throws(StorageError)
        -> [OutboxMessage]
    {
        try driver.rows(.outboxMessages, [user, includeAcknowledged]) { row in
            guard let user = UserID(row.string(1)), let day = Day(row.string(3)) else { return nil }
            return OutboxMessage(
                id: row.int64(0), user: user, kind: row.string(2), day: day, body: row.string(4),
                createdAt: row.date(5), acknowledgedAt: row.optionalDate(6))
        }
    }

    /// Marks messages as sent, in one transaction. Acknowledging twice changes nothing.
    ///
    /// - Returns: each id's state after the call: newly acknowledged, acknowledged before, or unknown.
    public func acknowledgeOutboxMessages(_ ids: [Int64]) throws(StorageError) -> [Int64: OutboxAcknowledgement] {
        try write { () throws(StorageError) in
            let acknowledged = Set(
                try driver.rows(.acknowledgeOutboxMessages, [SQLValue.integers(ids), now]) { $0.int64(0) })
            let known = Set(try driver.rows(.outboxMessageIDs, [SQLValue.integers(ids)]) { $0.int64(0) })
            var results: [Int64: OutboxAcknowledgement] = [:]
            for id in ids {
                results[id] =
                    acknowledged.contains(id) ? .acknowledged : known.contains(id) ? .alreadyAcknowledged : .unknown
            }
            return results
        }
    }
}

/// A message to queue.
public struct NewOutboxMessage: Sendable, Hashable {
    public var user: UserID
    /// What the message is, e.g. `log-reminder`; one per user, kind and day.
    public var kind: String
    /// The user's local day the message is for.
    public var day: Day
    public var body: String

    public init(user: UserID, kind: String, day: Day, body: String) {
        self.user = user
        self.kind = kind
        self.day = day
        self.body = body
    }
}

/// A queued message.
public struct OutboxMessage: Sendable, Hashable {
    public var id: Int64
    public var user: UserID
    public var kind: String
    public var day: Day
    public var body: String
    public var createdAt: Date
    /// When a sender acknowledged it; `nil` while it waits.
    public var acknowledgedAt: Date?
}

/// What acknowledging one message found.
public enum OutboxAcknowledgement: Sendable, Hashable {
    case acknowledged
    case alreadyAcknowledged
    case unknown
}

extension SQL {
    /// $1 rows of (user, kind, day, body), $2 created_at: each queued in order unless one existed; the new ids.
    static let postOutboxMessages = SQL(
        """
        INSERT INTO outbox (user_id, kind, day, body, created_at)
        SELECT s.value ->> 0, s.value ->> 1, (s.value ->> 2)::date, s.value ->> 3, $2::bigint
        FROM json_array_elements($1::json) WITH ORDINALITY AS s (value, key) WHERE true ORDER BY s.key
        ON CONFLICT (user_id, kind, day) DO NOTHING RETURNING id
        """)
    static let outboxMessage = SQL("SELECT 1 FROM outbox WHERE user_id = $1 AND kind = $2 AND day = $3")
    /// $1 user or NULL, $2 whether acknowledged ones too.
    static let outboxMessages = SQL(
        """
        SELECT id, user_id, kind, day, body, created_at, acknowledged_at FROM outbox
        WHERE ($1::text IS NULL OR user_id = $1::text) AND ($2::boolean OR acknowledged_at IS NULL)
        ORDER BY id
        """)
    /// $1 ids (a list), $2 acknowledged_at: the ids newly acknowledged.
    static let acknowledgeOutboxMessages = SQL(
        """
        UPDATE outbox SET acknowledged_at = $2 WHERE id = ANY($1::bigint[]) AND acknowledged_at IS NULL RETURNING id
        """)
    /// $1 ids (a list): those that exist.
    static let outboxMessageIDs = SQL("SELECT id FROM outbox WHERE id = ANY($1::bigint[])")
}
