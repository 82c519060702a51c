import Domain
import Foundation

extension SQLiteDriver {
    /// Opens a `Store.batch` transaction: the write lock up front, every row stamped with one instant.
    /// The first batch of a connection enlarges its page cache (`Connection.enlargePageCache()`):
    /// batches are how large inputs are written.
    func beginBatch() throws(StorageError) {
        if !hasBatchCache {
            try connection.enlargePageCache()
            hasBatchCache = true
        }
        knownUsersBeforeBatch = knownUsers
        try connection.begin(immediate: true)
        batchMilliseconds = Store.milliseconds(clock.now)
    }

    func commitBatch() throws(StorageError) {
        batchMilliseconds = nil
        try connection.commit()
    }

    /// Rolls the open batch back; users it inserted are forgotten again.
    func rollbackBatch() {
        batchMilliseconds = nil
        knownUsers = knownUsersBeforeBatch
        if connection.isInOpenTransaction {
            // Nothing to recover if the rollback itself fails: SQLite has then already rolled back.
            try? connection.rollback()
        }
    }

    /// Stages one record in the open `batch` transaction. Returns the database's reason when it
    /// rejects the record (a constraint), which is then undone on its own; throws for anything that
    /// makes the whole batch fail (I/O, a lock held too long). Valid only inside `batch`.
    func stage(_ record: InputRecord) throws(StorageError) -> StorageError? {
        try constraintRefusal { () throws(StorageError) in try apply(record) }
    }

    /// Stages the coalesced writes of one user-day in the open `batch` (see `DayWrite`), with the
    /// same rejection rules as `stage(_:)`. Valid only inside `batch`.
    func stage(_ write: DayWrite) throws(StorageError) -> StorageError? {
        try constraintRefusal { () throws(StorageError) in try apply(write) }
    }

    /// Stages the writes of several user-days in the open `batch`, in order: each run of up to
    /// `rowsPerInsert` is first tried as new rows in one statement (`insertNewDays`, the common case of a
    /// bulk load), and a run that cannot be is staged day by day, by the upsert. Returns the refusals of
    /// `stage(_: DayWrite)` by the index of their write. Valid only inside `batch`.
    func stage(_ writes: [DayWrite]) throws(StorageError) -> [(index: Int, refusal: StorageError)] {
        try stageInRuns(writes, insertRun: insertNewDays, one: stage)
    }

    /// Queues watch items in the open `batch`: runs of up to `rowsPerInsert` as one statement each
    /// (`insertWatchItems`), a run of one, and each of a run the database refused, as `stage(_: InputRecord)`.
    func stage(_ items: [WatchSubmission]) throws(StorageError) -> [(index: Int, refusal: StorageError)] {
        try stageInRuns(items, insertRun: insertWatchItems) { (item) throws(StorageError) in try stage(.watch(item)) }
    }

    /// Stages `items` in runs of up to `rowsPerInsert`: each run of two or more with `insertRun`, which returns
    /// `false` when the database refused it (and SQLite undid the statement alone); a run of one, or a refused
    /// run, item by item with `stageOne`. Returns the refusals by index.
    private func stageInRuns<Item>(
        _ items: [Item], insertRun: (ArraySlice<Item>) throws(StorageError) -> Bool,
        one stageOne: (Item) throws(StorageError) -> StorageError?
    ) throws(StorageError) -> [(index: Int, refusal: StorageError)] {
        var refusals: [(index: Int, refusal: StorageError)] = []
        var start = 0
        while start < items.count {
            let end = min(start + SQLiteDriver.rowsPerInsert, items.count)
            var inserted = false
            if end - start >= 2 { inserted = try insertRun(items[start..<end]) }
            if !inserted { refusals += try stageEach(items[start..<end], stageOne) }
            start = end
        }
        return refusals
    }

    /// Runs `write`, returning the database's refusal of the record (`StorageError.isRecordRefusal`: a
    /// constraint, a value too big) instead of throwing it: SQLite has already undone the failing
    /// statement alone, and the rest of the transaction goes on.
    func constraintRefusal(_ write: () throws(StorageError) -> Void) throws(StorageError) -> StorageError? {
        do throws(StorageError) {
            try write()
            return nil
        } catch  where error.isRecordRefusal {
            return error
        }
    }

    /// Commits what the open `batch` staged so far and begins the next transaction. Valid only
    /// inside `batch`.
    func checkpoint() throws(StorageError) {
        try connection.commit()
        try connection.begin(immediate: true)
    }

}
