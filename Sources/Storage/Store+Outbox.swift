public import Domain
public import Foundation

/// The outbox (DESIGN §6): messages for users waiting for a sender. At most one message per user,
/// kind and day, enforced by a UNIQUE constraint, so a task that runs twice on a day queues one.
extension Store {
    /// Queues a message unless the user already has one of `kind` for `day`, in its own transaction.
    /// Returns the new message's id, or `nil` when one existed (it is left as it was).
    @discardableResult
    public func post(_ message: NewOutboxMessage) throws(StorageError) -> Int64? {
        try driver.post(message)
    }

    /// Whether the user has a message of `kind` for `day`, acknowledged or not.
    public func hasOutboxMessage(user: UserID, kind: String, day: Day) throws(StorageError) -> Bool {
        try driver.hasOutboxMessage(user: user, kind: kind, day: day)
    }

    /// Messages oldest first: the unacknowledged ones, or all with `includeAcknowledged`. `nil`
    /// matches every user.
    public func outboxMessages(user: UserID? = nil, includeAcknowledged: Bool = false) throws(StorageError)
        -> [OutboxMessage]
    {
        try driver.outboxMessages(user: user, includeAcknowledged: includeAcknowledged)
    }

    /// Marks messages as sent, in one transaction. Acknowledging twice changes nothing.
    ///
    /// - Returns: each id's state after the call: newly acknowledged, acknowledged before, or unknown.
    public func acknowledgeOutboxMessages(_ ids: [Int64]) throws(StorageError) -> [Int64: OutboxAcknowledgement] {
        try driver.acknowledgeOutboxMessages(ids)
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
