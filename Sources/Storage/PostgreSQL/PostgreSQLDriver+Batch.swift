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

    /// Stages a record, written before this returns: the database's refusal of it (`StorageError.isRecordRefusal`)
    /// is returned, and the rest of the batch goes on, as on SQLite. PostgreSQL cannot undo one failed
    /// statement of a transaction by itself, so each statement of a batch runs under a savepoint
    /// (`underSavepoint`): a refused statement is undone alone, and one that wrote many records is written
    /// again record by record to find the refused ones. The decoder checks every bound the schema does, so a
    /// refusal is a disagreement between the two (or a trigger of the operator's), never the common case.
    func stage(_ record: InputRecord) throws(StorageError) -> StorageError? {
        switch record {
        case .entry(let entry): return try stage(DayWrite(entry))
        case .health(let metrics): return metrics.isEmpty ? nil : try stage(DayWrite(metrics))
        case .watch(let item): return try stage([item]).first?.refusal
        case .user, .settings:
            try flushStagedDays()
            do {
                try underSavepoint { () throws(StorageError) in try apply(record) }
                return nil
            } catch  where error.isRecordRefusal {
                return error
            }
        }
    }

    /// Stages one day's write, written before this returns, as `stage(_: InputRecord)`.
    func stage(_ write: DayWrite) throws(StorageError) -> StorageError? {
        try stage([write]).first?.refusal
    }

    /// Stages the writes of several user-days, in order, written before this returns: up to `stagedLimit` days
    /// a statement (`bulkUpsertDays`; a user-day that comes again starts the next statement), each under a
    /// savepoint. Returns the refusals by the index of their write.
    func stage(_ writes: [DayWrite]) throws(StorageError) -> [(index: Int, refusal: StorageError)] {
        try flushStagedDays()
        var refusals: [(index: Int, refusal: StorageError)] = []
        var chunk = StagedChunk()
        for (index, write) in writes.enumerated() {
            try ensureUser(write.user)
            let key = write.user.rawValue + "\u{0}" + write.day.description
            if chunk.keys.contains(key) || chunk.rows.count >= PostgreSQLDriver.stagedLimit {
                refusals += try writeDays(chunk)
                chunk = StagedChunk()
            }
            chunk.append(dayParameters(write), index: index, key: key)
        }
        refusals += try writeDays(chunk)
        return refusals
    }

    /// Queues watch items, in order, written before this returns: up to `stagedLimit` a statement
    /// (`bulkInsertWatchItems`), each under a savepoint. Returns the refusals by the index of their item.
    func stage(_ items: [WatchSubmission]) throws(StorageError) -> [(index: Int, refusal: StorageError)] {
        try flushStagedDays()
        var refusals: [(index: Int, refusal: StorageError)] = []
        var chunk = StagedChunk()
        for (index, item) in items.enumerated() {
            try ensureUser(item.user)
            if chunk.rows.count >= PostgreSQLDriver.stagedLimit {
                refusals += try writeRows(
                    chunk, all: PostgreSQLDriver.bulkInsertWatchItems, one: PostgreSQLDriver.insertWatchItem)
                chunk = StagedChunk()
            }
            chunk.append(watchItemParameters(item), index: index)
        }
        refusals += try writeRows(
            chunk, all: PostgreSQLDriver.bulkInsertWatchItems, one: PostgreSQLDriver.insertWatchItem)
        return refusals
    }

    /// Rows for one statement, with the index of the write each came from.
    struct StagedChunk {
        var rows: [[String?]] = []
        var indexes: [Int] = []
        var keys: Set<String> = []

        mutating func append(_ row: [String?], index: Int, key: String? = nil) {
            rows.append(row)
            indexes.append(index)
            if let key { keys.insert(key) }
        }
    }

    /// Writes a chunk of days, as `flushStagedDays` writes its queue, under a savepoint; when the database
    /// refuses it, writes each day on its own to find the refused ones. Returns their refusals.
    private func writeDays(_ chunk: StagedChunk) throws(StorageError) -> [(index: Int, refusal: StorageError)] {
        guard !chunk.rows.isEmpty else { return [] }
        do {
            try underSavepoint { () throws(StorageError) in try upsertDays(chunk.rows) }
            return []
        } catch  where error.isRecordRefusal {
            return try writeEach(chunk, error) { (row) throws(StorageError) in
                try connection.query(PostgreSQLDriver.upsertDay, row)
            }
        }
    }

    /// Writes a chunk's rows with `all` (column k of the rows as array parameter k) under a savepoint; when the
    /// database refuses it, each row with `one`. Returns the refusals.
    private func writeRows(_ chunk: StagedChunk, all: StaticString, one: StaticString) throws(StorageError)
        -> [(index: Int, refusal: StorageError)]
    {
        guard !chunk.rows.isEmpty else { return [] }
        do {
            try underSavepoint { () throws(StorageError) in
                if chunk.rows.count == 1 {
                    try connection.query(one, chunk.rows[0])
                } else {
                    try connection.query(all, PostgreSQLDriver.arrayColumns(chunk.rows))
                }
            }
            return []
        } catch  where error.isRecordRefusal {
            return try writeEach(chunk, error) { (row) throws(StorageError) in try connection.query(one, row) }
        }
    }

    /// After the database refused a whole chunk with `refusal`: writes each row on its own under a savepoint,
    /// and returns the refusals by index. A chunk of one row is that row's refusal.
    private func writeEach(
        _ chunk: StagedChunk, _ refusal: StorageError, _ write: ([String?]) throws(StorageError) -> Void
    ) throws(StorageError) -> [(index: Int, refusal: StorageError)] {
        guard chunk.rows.count > 1 else { return chunk.indexes.map { ($0, refusal) } }
        var refusals: [(index: Int, refusal: StorageError)] = []
        for (row, index) in zip(chunk.rows, chunk.indexes) {
            do {
                try underSavepoint { () throws(StorageError) in try write(row) }
            } catch  where error.isRecordRefusal {
                refusals.append((index, error))
            }
        }
        return refusals
    }

    /// Runs `body` under a savepoint of the open transaction: when the database refuses a record
    /// (`StorageError.isRecordRefusal`), what `body` did is undone and the transaction goes on; any other
    /// error fails the transaction. A savepoint that wrote is a subtransaction with an id of its own until
    /// the commit; a non-strict ingestion commits every `IngestBatching.records` records, a few dozen such
    /// statements, below the 64 a session caches before other sessions' snapshots slow down.
    /// https://www.postgresql.org/docs/15/sql-savepoint.html
    func underSavepoint(_ body: () throws(StorageError) -> Void) throws(StorageError) {
        try connection.execute("SAVEPOINT staged")
        do {
            try body()
        } catch  where error.isRecordRefusal {
            try connection.execute("ROLLBACK TO SAVEPOINT staged; RELEASE SAVEPOINT staged")
            throw error
        }
        try connection.execute("RELEASE SAVEPOINT staged")
    }

    /// Days per chunk (and watch items per statement): enough that a statement's fixed cost is a
    /// small share of the work, few enough that a chunk's arrays stay small.
    static let stagedLimit = 1_000

    /// Forgets what was queued and not sent: its transaction is rolling back.
    func discardStaged() {
        stagedDays.removeAll()
        stagedDayKeys.removeAll()
    }

    /// Queues a day's write whose refusal would fail the batch (a drained watch item's, whose payload was
    /// checked as it was queued): queued writes are merged together, in two statements per chunk
    /// (`flushStagedDays`), when the chunk is full, when the same day comes again, when a day is written
    /// otherwise, and before the batch commits.
    func queue(_ write: DayWrite) throws(StorageError) {
        try ensureUser(write.user)
        let key = write.user.rawValue + "\u{0}" + write.day.description
        if stagedDayKeys.contains(key) { try flushStagedDays() }
        stagedDays.append(dayParameters(write))
        stagedDayKeys.insert(key)
        if stagedDays.count >= PostgreSQLDriver.stagedLimit { try flushStagedDays() }
    }

    /// Writes the queued days (`queue(_:)`).
    func flushStagedDays() throws(StorageError) {
        guard !stagedDays.isEmpty else { return }
        defer {
            stagedDays.removeAll(keepingCapacity: true)
            stagedDayKeys.removeAll(keepingCapacity: true)
        }
        try upsertDays(stagedDays)
    }

    /// Writes days, each user-day at most once: one day with `upsertDay`, more with `bulkUpsertDays`, then any
    /// day that statement could not write (a row another writer inserted meanwhile) with `upsertDay`.
    private func upsertDays(_ days: [[String?]]) throws(StorageError) {
        guard days.count > 1 else {
            if let day = days.first { try connection.query(PostgreSQLDriver.upsertDay, day) }
            return
        }
        // Column k of the chunk as one array parameter, except $3 (updated_at), the same for all.
        var columns = PostgreSQLDriver.arrayColumns(days)
        columns[2] = days[0][2]
        let written = try connection.query(PostgreSQLDriver.bulkUpsertDays, columns)
        guard written.count < days.count else { return }
        let done = Set((0..<written.count).map { written.string($0, 0) + "\u{0}" + written.string($0, 1) })
        for parameters in days where !done.contains((parameters[0] ?? "") + "\u{0}" + (parameters[1] ?? "")) {
            try connection.query(PostgreSQLDriver.upsertDay, parameters)
        }
    }

    func checkpoint() throws(StorageError) {
        try flushStaged()
        try connection.commit()
        try beginBatchTransaction()
        knownUsersBeforeBatch = knownUsers
    }

    /// Sends everything queued and not yet written.
    func flushStaged() throws(StorageError) {
        try flushStagedDays()
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
