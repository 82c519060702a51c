public import Foundation

/// The kinds of watch-queue item this version knows how to apply. Items of any other kind are kept
/// and reported, never dropped: a newer watch app may send kinds an older server does not know.
public enum WatchKind: String, Sendable, Hashable, CaseIterable {
    /// User-entered symptom fields for a day.
    case symptomLog
    /// Mood and energy for a day.
    case healthCheckIn
}

/// An item queued by the watch app, waiting to be applied.
public struct WatchItem: Sendable, Hashable {
    public var id: Int64
    public var user: UserID
    /// The raw kind, which may be one this version does not know.
    public var kind: String
    /// The payload's JSON text, as the input wrote it.
    public var payload: String
    public var enqueuedAt: Date
    public var attempts: Int
    public var lastError: String?

    public init(
        id: Int64, user: UserID, kind: String, payload: String, enqueuedAt: Date, attempts: Int = 0,
        lastError: String? = nil
    ) {
        self.id = id
        self.user = user
        self.kind = kind
        self.payload = payload
        self.enqueuedAt = enqueuedAt
        self.attempts = attempts
        self.lastError = lastError
    }

    /// Attempts after which a failing item moves to the dead-letter list.
    public static let maxAttempts = 5
}

/// A new watch item, before it has an identifier.
public struct WatchSubmission: Sendable, Hashable {
    public var user: UserID
    public var kind: String
    /// JSON text, stored byte for byte: a payload of a kind this version does not know is kept
    /// exactly as it came, for the version that applies it.
    public var payload: String
    public var enqueuedAt: Date
    /// For an item of a kind this version does not apply: which copy of this user's, kind's and
    /// payload's item it is within its input (1 for the first). Ingesting the same input again
    /// queues none of its copies a second time, while an input that repeats an item keeps every
    /// repeat. `nil` for items that are applied, which re-applying in order leaves as they were.
    public var occurrence: Int?

    public init(user: UserID, kind: String, payload: String, enqueuedAt: Date, occurrence: Int? = nil) {
        self.user = user
        self.kind = kind
        self.payload = payload
        self.enqueuedAt = enqueuedAt
        self.occurrence = occurrence
    }
}
