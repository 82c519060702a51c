import Domain
import Foundation

/// The outbox (see `Store+Outbox.swift`); the UNIQUE (user, kind, day) constraint makes a second
/// post a no-op however many workers post at once.
extension PostgreSQLDriver {
    func post(_ message: NewOutboxMessage) throws(StorageError) -> Int64? {
        try write { () throws(StorageError) in
            try ensureUser(message.user)
            let rows = try connection.query(
                """
                INSERT INTO outbox (user_id, kind, day, body, created_at) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (user_id, kind, day) DO NOTHING RETURNING id
                """,
                [message.user.rawValue, message.kind, message.day.description, message.body, .pg(nowMilliseconds)])
            return rows.count == 1 ? rows.int64(0, 0) : nil
        }
    }

    func hasOutboxMessage(user: UserID, kind: String, day: Day) throws(StorageError) -> Bool {
        try connection.query(
            "SELECT 1 FROM outbox WHERE user_id = $1 AND kind = $2 AND day = $3",
            [user.rawValue, kind, day.description]
        ).count > 0
    }

    func outboxMessages(user: UserID?, includeAcknowledged: Bool) throws(StorageError) -> [OutboxMessage] {
        let rows = try connection.query(
            """
            SELECT id, user_id, kind, day, body, created_at, acknowledged_at FROM outbox
            WHERE ($1::text IS NULL OR user_id = $1::text) AND ($2::boolean OR acknowledged_at IS NULL)
            ORDER BY id
            """, [user?.rawValue, .pg(includeAcknowledged)])
        return (0..<rows.count).compactMap { row in
            guard let user = UserID(rows.string(row, 1)), let day = Day(rows.string(row, 3)) else { return nil }
            return OutboxMessage(
                id: rows.int64(row, 0), user: user, kind: rows.string(row, 2), day: day, body: rows.string(row, 4),
                createdAt: Store.date(milliseconds: rows.int64(row, 5)),
                acknowledgedAt: rows.optionalInt64(row, 6).map { Store.date(milliseconds: $0) })
        }
    }

    func acknowledgeOutboxMessages(_ ids: [Int64]) throws(StorageError) -> [Int64: OutboxAcknowledgement] {
        try write { () throws(StorageError) in
            var results: [Int64: OutboxAcknowledgement] = [:]
            for id in ids {
                let acknowledged =
                    try connection.query(
                        "UPDATE outbox SET acknowledged_at = $2 WHERE id = $1 AND acknowledged_at IS NULL",
                        [.pg(id), .pg(nowMilliseconds)]
                    ).affected == 1
                if acknowledged {
                    results[id] = .acknowledged
                    continue
                }
                let exists = try connection.query("SELECT 1 FROM outbox WHERE id = $1", [.pg(id)]).count > 0
                results[id] = exists ? .alreadyAcknowledged : .unknown
            }
            return results
        }
    }
}
