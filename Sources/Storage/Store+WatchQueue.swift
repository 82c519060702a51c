public import Domain
public import Foundation

/// The watch queue (DESIGN §2): items are applied by kind, each item's effect and its removal in one
/// transaction; an item that fails stays with its attempt count and error, and moves to the
/// dead-letter list after `WatchItem.maxAttempts` failures. Nothing leaves the queue any other way.
extension Store {
    /// Queues an item in its own transaction and returns its id.
    @discardableResult
    public func enqueue(_ item: WatchSubmission) throws(StorageError) -> Int64 {
        try driver.enqueue(item)
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
        try driver.allWatchItems(user: user)
    }

    /// Applies a watch item's effect and deletes the item, in one transaction. Returns `false`, and
    /// changes nothing, when the item is no longer queued (another worker applied it first).
    public func complete(watchItem id: Int64, applying entry: UserEntry) throws(StorageError) -> Bool {
        try driver.complete(watchItem: id, applying: entry)
    }

    /// `complete(watchItem:applying:)` inside an open `batch`, whose transaction then holds the
    /// item's effect and its removal together.
    public func stageCompletion(watchItem id: Int64, applying entry: UserEntry) throws(StorageError) -> Bool {
        try driver.stageCompletion(watchItem: id, applying: entry)
    }

    /// `stageCompletion(watchItem:applying:)` for a page of items, in their order: each item still
    /// queued is removed and its entry staged, and its id is in the set returned; one another
    /// worker applied first changes nothing. On PostgreSQL the page costs one statement, not one
    /// per item.
    public func stageCompletions(_ completions: [WatchCompletion]) throws(StorageError) -> Set<Int64> {
        try driver.stageCompletions(completions)
    }

    /// Records a failed attempt at applying an item. After `WatchItem.maxAttempts` failures the item
    /// moves to the dead-letter list, in the same transaction. Returns `true` when it moved.
    @discardableResult
    public func recordFailure(watchItem id: Int64, error message: String) throws(StorageError) -> Bool {
        try driver.recordFailure(watchItem: id, error: message)
    }

    /// `recordFailure(watchItem:error:)` inside an open `batch`.
    @discardableResult
    public func stageFailure(watchItem id: Int64, error message: String) throws(StorageError) -> Bool {
        try driver.stageFailure(watchItem: id, error: message)
    }

    /// Items that failed `WatchItem.maxAttempts` times and were not requeued, oldest first.
    public func deadLetters(user: UserID? = nil) throws(StorageError) -> [DeadLetter] {
        try driver.deadLetters(user: user)
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
