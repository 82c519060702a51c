public import Domain
public import Foundation

/// Batches: one open write transaction a large input is staged into, record by record or many at a time. The
/// staging loop is the same on every database: rows go many to a statement (days `driver.daysPerStatement`: SQLite
/// 32, PostgreSQL 4,096 through a COPY; watch items `driver.rowsPerStatement`), a statement the database refuses is
/// undone alone (`StorageDriver.refusable`) and its rows staged one by one to find the refused ones, and the rest of
/// the batch goes on. The decoder checks every bound the schema does, so a refusal is a disagreement between the two
/// (or an operator's trigger), never the common case.
extension Store {
    /// Runs `body` on the store's executor inside a write transaction, for streaming a large input
    /// without holding it in memory: `body` reads, decodes and calls `stage(_:)` record by record.
    ///
    /// Commits when `body` returns, rolls back when it throws. Inside, `checkpoint()` commits what was
    /// staged so far and opens the next transaction (a long non-atomic ingest); call it only when a
    /// rollback should keep what came before. Not reentrant, and `body` must not suspend: the
    /// transaction belongs to this call alone.
    public func batch<R: Sendable>(_ body: @Sendable (isolated Store) throws -> R) throws -> R {
        knownUsersBeforeBatch = knownUsers
        try driver.begin(.batch)
        batchMilliseconds = Store.milliseconds(clock.now)
        do {
            let result = try body(self)
            batchMilliseconds = nil
            try driver.commit()
            return result
        } catch {
            batchMilliseconds = nil
            knownUsers = knownUsersBeforeBatch
            driver.rollback()
            throw error
        }
    }

    /// Stages one record in the open `batch` transaction. Returns the database's reason when it
    /// rejects the record (a constraint), which is then undone on its own; throws for anything that
    /// makes the whole batch fail (I/O, a lock held too long). Valid only inside `batch`.
    public func stage(_ record: InputRecord) throws(StorageError) -> StorageError? {
        switch record {
        case .entry(let entry): return try stage(DayWrite(entry))
        case .health(let metrics): return metrics.isEmpty ? nil : try stage(DayWrite(metrics))
        case .watch(let item): return try stage([item]).first?.refusal
        case .user, .settings: return try stage([record]).first?.refusal
        }
    }

    /// Stages user and settings records, in order, as `stage(_: InputRecord)` would one by one, and returns the
    /// refusals by the index of their record: all of them together under one savepoint (`apply(_: [InputRecord])`,
    /// a statement per kind of change), and each under its own only when the database refused one of them (on
    /// PostgreSQL a savepoint is two round trips). Days and watch items are staged many at a time by
    /// `stage(_: [DayWrite])` and `stage(_: [WatchSubmission])`. Valid only inside `batch`.
    public func stage(_ records: [InputRecord]) throws(StorageError) -> [(index: Int, refusal: StorageError)] {
        if records.count > 1 {
            do {
                try undoable { () throws(StorageError) in try apply(records) }
                return []
            } catch  where error.isRecordRefusal {
                // Found below, one by one.
            }
        }
        var refusals: [(index: Int, refusal: StorageError)] = []
        for (index, record) in records.enumerated() {
            if let refusal = try refusal({ () throws(StorageError) in try apply([record]) }) {
                refusals.append((index, refusal))
            }
        }
        return refusals
    }

    /// Stages the coalesced writes of one user-day in the open `batch` (see `DayWrite`), with the
    /// same rejection rules as `stage(_:)`. Valid only inside `batch`.
    public func stage(_ write: DayWrite) throws(StorageError) -> StorageError? {
        try stage([write]).first?.refusal
    }

    /// Stages the writes of several user-days in the open `batch`, in order, as `stage(_: DayWrite)` would one
    /// by one, and returns the refusals by the index of their write: up to `daysPerStatement` days to a statement
    /// (`StorageDriver.upsertDays`), a chunk ending before a user-day it holds already. Valid only inside `batch`.
    public func stage(_ writes: [DayWrite]) throws(StorageError) -> [(index: Int, refusal: StorageError)] {
        let now = now
        return try stageInChunks(
            writes, limit: driver.daysPerStatement, user: \.user, key: { DayKey(user: $0.user, day: $0.day) },
            all: { (chunk) throws(StorageError) in try driver.upsertDays(chunk, at: now) },
            one: { (write) throws(StorageError) in try driver.upsertDay(write, at: now) })
    }

    /// Queues watch items in the open `batch`, in order, as `stage(_: InputRecord)` would one by one, and
    /// returns the refusals by the index of their item: many to a statement (`StorageDriver.insertWatchItems`).
    /// Valid only inside `batch`.
    public func stage(_ items: [WatchSubmission]) throws(StorageError) -> [(index: Int, refusal: StorageError)] {
        try stageInChunks(
            items, limit: driver.rowsPerStatement, user: \.user, key: nil,
            all: { (chunk) throws(StorageError) in
                _ = try driver.insertWatchItems(chunk)
                return []
            },
            one: { (item) throws(StorageError) in _ = try driver.insertWatchItems([item]) })
    }

    /// Commits what the open `batch` staged so far and begins the next transaction. Valid only
    /// inside `batch`.
    public func checkpoint() throws(StorageError) {
        try driver.commit()
        try driver.begin(.batch)
        knownUsersBeforeBatch = knownUsers
    }

    /// A user's time zone, `nil` for an unknown user. Usable inside and outside `batch`.
    public func timeZone(of id: UserID) throws(StorageError) -> TimeZone? {
        try driver.user(id)?.timeZone
    }

    /// Writes `items` in chunks of up to `limit` (a chunk ends before an item whose `key` it holds already: a
    /// statement writes each row once), their users ensured first: each chunk of two or more with `all`, which
    /// returns the positions it did not write; a chunk of one, each of those, and each item of a chunk the
    /// database refused, with `one`: so a refused record is found and named alone. Returns the refusals by index.
    private func stageInChunks<Item>(
        _ items: [Item], limit: Int, user: (Item) -> UserID, key: ((Item) -> DayKey)?,
        all: (ArraySlice<Item>) throws(StorageError) -> [Int], one: (Item) throws(StorageError) -> Void
    ) throws(StorageError) -> [(index: Int, refusal: StorageError)] {
        var refusals: [(index: Int, refusal: StorageError)] = []
        var start = 0
        var keys = Set<DayKey>()
        while start < items.count {
            var end = start
            keys.removeAll(keepingCapacity: true)
            while end < items.count, end - start < limit {
                if let key, !keys.insert(key(items[end])).inserted { break }
                end += 1
            }
            let chunk = items[start..<end]
            try ensureUsers(chunk.lazy.map(user))
            var unwritten = [start]
            if chunk.count > 1 {
                do {
                    unwritten = try driver.refusable { () throws(StorageError) in try all(chunk) }
                } catch  where error.isRecordRefusal {
                    unwritten = Array(chunk.indices)
                }
            }
            for index in unwritten {
                if let refusal = try refusal({ () throws(StorageError) in try one(items[index]) }) {
                    refusals.append((index, refusal))
                }
            }
            start = end
        }
        return refusals
    }

    /// Runs `write` in the open transaction, returning the database's refusal of its record
    /// (`StorageError.isRecordRefusal`: a constraint, a value too big; or those of them `refused` picks) instead of
    /// throwing it: what `write` did is undone alone (`StorageDriver.refusable`), and the rest of the transaction
    /// goes on.
    func refusal(where refused: (StorageError) -> Bool = \.isRecordRefusal, _ write: () throws(StorageError) -> Void)
        throws(StorageError) -> StorageError?
    {
        do {
            try undoable(write)
            return nil
        } catch  where refused(error) {
            return error
        }
    }

    /// Runs `write` in the open transaction under a savepoint (`StorageDriver.refusable`): when it throws, what it
    /// wrote is undone, and the users it ensured are no longer taken as known.
    private func undoable(_ write: () throws(StorageError) -> Void) throws(StorageError) {
        usersEnsuredUnderSavepoint = []
        defer { usersEnsuredUnderSavepoint = nil }
        do {
            try driver.refusable(write)
        } catch {
            for user in usersEnsuredUnderSavepoint ?? [] { knownUsers.remove(user) }
            throw error
        }
    }
}

/// A user-day, as a chunk of day writes holds each at most once.
struct DayKey: Hashable {
    var user: UserID
    var day: Day
}
