import Domain
import Foundation

extension PostgreSQLDriver {
    func beginBatch() throws(StorageError) {
        knownUsersBeforeBatch = knownUsers
        try beginBatchTransaction()
        batchMilliseconds = Store.milliseconds(clock.now)
    }

    /// A batch's transaction. `bulkUpsertDays` must find each staged day by the key's index: a hash
    /// join reads the whole table for every chunk, and the planner picks one whenever it thinks the
    /// table small — as it is when a first ingest begins, and as a plan cached then keeps it.
    /// Turning off the two whole-table joins for the batch leaves the nested loop over the index;
    /// no other statement of a batch joins. https://www.postgresql.org/docs/15/runtime-config-query.html
    private func beginBatchTransaction() throws(StorageError) {
        try connection.begin()
        try connection.execute("SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off")
    }

    func commitBatch() throws(StorageError) {
        try flushStaged()
        batchMilliseconds = nil
        try connection.commit()
    }

    func rollbackBatch() {
        discardStaged()
        batchMilliseconds = nil
        knownUsers = knownUsersBeforeBatch
        connection.rollback()
    }

    /// Stages a record. Unlike SQLite, PostgreSQL cannot undo one failed statement of a transaction
    /// without a savepoint, and a savepoint per record would give a large batch tens of thousands
    /// of subtransactions (which slow every other session's snapshots once past 64). So a record
    /// the database refuses fails the whole batch, back to its last checkpoint, with the database's
    /// reason. The decoder checks every bound the schema does before anything is staged, so such a
    /// refusal is a disagreement between the two, never bad input; nothing committed is lost.
    func stage(_ record: InputRecord) throws(StorageError) -> StorageError? {
        if case .entry(let entry) = record { return try stage(DayWrite(entry)) }
        if case .health(let metrics) = record { return metrics.isEmpty ? nil : try stage(DayWrite(metrics)) }
        if case .watch(let item) = record {
            // Queued items are only read once the batch is committed: they need not wait for the days
            // staged before them, and are inserted many per statement.
            try ensureUser(item.user)
            stagedWatchItems.append(watchItemParameters(item))
            if stagedWatchItems.count >= PostgreSQLDriver.stagedLimit { try flushStagedWatchItems() }
            return nil
        }
        // A user or settings record writes other tables than the staged days, which need only their
        // user's row (`ensureUser`, done as each is staged): applied at once, it leaves the chunk
        // growing instead of cutting it at every user of an input ordered by user.
        try apply(record)
        return nil
    }

    /// Queues the day's write; queued writes are merged together, in two statements per chunk
    /// (`flushStagedDays`), when the chunk is full, when the same day comes again, when a day is
    /// written otherwise, and before the batch commits.
    func stage(_ write: DayWrite) throws(StorageError) -> StorageError? {
        try ensureUser(write.user)
        let key = write.user.rawValue + "\u{0}" + write.day.description
        if stagedDayKeys.contains(key) { try flushStagedDays() }
        stagedDays.append(dayParameters(write))
        stagedDayKeys.insert(key)
        if stagedDays.count >= PostgreSQLDriver.stagedLimit { try flushStagedDays() }
        return nil
    }

    /// Stages each write in turn (`stage(_: DayWrite)` already sends many days per statement).
    func stage(_ writes: [DayWrite]) throws(StorageError) -> [(index: Int, refusal: StorageError)] {
        try stageEach(writes[...]) { (write) throws(StorageError) in try stage(write) }
    }

    /// Stages each item in turn (`stage(_: InputRecord)` already sends many items per statement).
    func stage(_ items: [WatchSubmission]) throws(StorageError) -> [(index: Int, refusal: StorageError)] {
        try stageEach(items[...]) { (item) throws(StorageError) in try stage(.watch(item)) }
    }

    /// Days per chunk (and watch items per round trip): enough that a statement's fixed cost is a
    /// small share of the work, few enough that a chunk's arrays stay small.
    static let stagedLimit = 1_000

    /// Forgets what was staged and not sent: its transaction is rolling back.
    func discardStaged() {
        stagedDays.removeAll()
        stagedDayKeys.removeAll()
        stagedWatchItems.removeAll()
    }

    /// Writes the staged days: one day with `upsertDay`, more with `bulkUpsertDays`, then any day
    /// that statement could not write (a row another writer inserted meanwhile) with `upsertDay`.
    func flushStagedDays() throws(StorageError) {
        guard !stagedDays.isEmpty else { return }
        defer {
            stagedDays.removeAll(keepingCapacity: true)
            stagedDayKeys.removeAll(keepingCapacity: true)
        }
        guard stagedDays.count > 1 else {
            try connection.query(PostgreSQLDriver.upsertDay, stagedDays[0])
            return
        }
        // Column k of the chunk as one array parameter, except $3 (updated_at), the same for all.
        var columns = PostgreSQLDriver.arrayColumns(stagedDays)
        columns[2] = stagedDays[0][2]
        let written = try connection.query(PostgreSQLDriver.bulkUpsertDays, columns)
        guard written.count < stagedDays.count else { return }
        let done = Set((0..<written.count).map { written.string($0, 0) + "\u{0}" + written.string($0, 1) })
        for parameters in stagedDays where !done.contains((parameters[0] ?? "") + "\u{0}" + (parameters[1] ?? "")) {
            try connection.query(PostgreSQLDriver.upsertDay, parameters)
        }
    }

    func checkpoint() throws(StorageError) {
        try flushStaged()
        try connection.commit()
        try beginBatchTransaction()
        knownUsersBeforeBatch = knownUsers
    }

    /// Sends everything staged and not yet written.
    func flushStaged() throws(StorageError) {
        try flushStagedDays()
        try flushStagedWatchItems()
    }

    func flushStagedWatchItems() throws(StorageError) {
        guard !stagedWatchItems.isEmpty else { return }
        defer { stagedWatchItems.removeAll(keepingCapacity: true) }
        try connection.query(PostgreSQLDriver.bulkInsertWatchItems, PostgreSQLDriver.arrayColumns(stagedWatchItems))
    }

    /// Writes one input record in the open transaction.
    func apply(_ record: InputRecord) throws(StorageError) {
        switch record {
        case .user(let update): try apply(update)
        case .settings(let update): try apply(update)
        case .entry(let entry): try apply(DayWrite(entry))
        case .health(let metrics): if !metrics.isEmpty { try apply(DayWrite(metrics)) }
        case .watch(let item): try apply(item)
        }
    }
}
