import Domain
import Foundation

/// The outbox (DESIGN §6): messages for users waiting for a sender. At most one message per user,
/// kind and day, enforced by a UNIQUE constraint, so a task that runs twice on a day queues one.
extension SQLiteDriver {
    /// Queues a message unless the user already has one of `kind` for `day`, in its own transaction.
    /// Returns the new message's id, or `nil` when one existed (it is left as it was).
    func post(_ message: NewOutboxMessage) throws(StorageError) -> Int64? {
        try write { () throws(StorageError) in
            try ensureUser(message.user)
            return try connection.withStatement(
                """
                INSERT INTO outbox (user_id, kind, day, body, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT (user_id, kind, day) DO NOTHING
                """
            ) { (statement) throws(StorageError) in
                try statement.bind(1, message.user.rawValue)
                try statement.bind(2, message.kind)
                try statement.bind(3, message.day.description)
                try statement.bind(4, message.body)
                try statement.bind(5, nowMilliseconds)
                try statement.run()
                return connection.changes == 1 ? connection.lastInsertedRowID : nil
            }
        }
    }

    /// Whether the user has a message of `kind` for `day`, acknowledged or not.
    func hasOutboxMessage(user: UserID, kind: String, day: Day) throws(StorageError) -> Bool {
        try connection.withStatement("SELECT 1 FROM outbox WHERE user_id = ?1 AND kind = ?2 AND day = ?3") {
            (statement) throws(StorageError) in
            try statement.bind(1, user.rawValue)
            try statement.bind(2, kind)
            try statement.bind(3, day.description)
            return try statement.step()
        }
    }

    /// Messages oldest first: the unacknowledged ones, or all with `includeAcknowledged`. `nil`
    /// matches every user.
    func outboxMessages(user: UserID? = nil, includeAcknowledged: Bool = false) throws(StorageError)
        -> [OutboxMessage]
    {
        try connection.withStatement(
            """
            SELECT id, user_id, kind, day, body, created_at, acknowledged_at FROM outbox
            WHERE (?1 IS NULL OR user_id = ?1) AND (?2 OR acknowledged_at IS NULL)
            ORDER BY id
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, user?.rawValue)
            try statement.bind(2, includeAcknowledged)
            var messages: [OutboxMessage] = []
            while try statement.step() {
                guard let user = UserID(statement.string(1)), let day = Day(statement.string(3)) else { continue }
                messages.append(
                    OutboxMessage(
                        id: statement.int64(0), user: user, kind: statement.string(2), day: day,
                        body: statement.string(4), createdAt: Store.date(milliseconds: statement.int64(5)),
                        acknowledgedAt: statement.isNull(6) ? nil : Store.date(milliseconds: statement.int64(6))))
            }
            return messages
        }
    }

    /// Marks messages as sent, in one transaction. Acknowledging twice changes nothing.
    ///
    /// - Returns: each id's state after the call: newly acknowledged, acknowledged before, or unknown.
    func acknowledgeOutboxMessages(_ ids: [Int64]) throws(StorageError) -> [Int64: OutboxAcknowledgement] {
        try write { () throws(StorageError) in
            var results: [Int64: OutboxAcknowledgement] = [:]
            for id in ids {
                let acknowledged = try connection.withStatement(
                    "UPDATE outbox SET acknowledged_at = ?2 WHERE id = ?1 AND acknowledged_at IS NULL"
                ) { (statement) throws(StorageError) in
                    try statement.bind(1, id)
                    try statement.bind(2, nowMilliseconds)
                    try statement.run()
                    return connection.changes == 1
                }
                if acknowledged {
                    results[id] = .acknowledged
                    continue
                }
                let exists = try connection.withStatement("SELECT 1 FROM outbox WHERE id = ?1") {
                    (statement) throws(StorageError) in
                    try statement.bind(1, id)
                    return try statement.step()
                }
                results[id] = exists ? .alreadyAcknowledged : .unknown
            }
            return results
        }
    }
}
