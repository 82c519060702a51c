import Domain
import Foundation

extension PostgreSQLDriver {
    func beginBatch() throws(StorageError) {
        knownUsersBeforeBatch = knownUsers
        try connection.begin()
        batchMilliseconds = Store.milliseconds(clock.now)
    }

    func commitBatch() throws(StorageError) {
        try flushStagedDays()
        batchMilliseconds = nil
        try connection.commit()
    }

    func rollbackBatch() {
        stagedDays.removeAll()
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
        try flushStagedDays()
        try apply(record)
        return nil
    }

    /// Queues the day's upsert; queued upserts are sent together, in order, in one round trip
    /// (`PostgreSQLConnection.executeAll`) when the queue is full or anything else is staged.
    func stage(_ write: DayWrite) throws(StorageError) -> StorageError? {
        try ensureUser(write.user)
        stagedDays.append(dayParameters(write))
        if stagedDays.count >= PostgreSQLDriver.stagedDayLimit { try flushStagedDays() }
        return nil
    }

    /// Upserts per round trip: enough that the wait for the server is a small share of the work,
    /// few enough that the statements and their answers fit the socket's buffers.
    static let stagedDayLimit = 500

    func flushStagedDays() throws(StorageError) {
        guard !stagedDays.isEmpty else { return }
        defer { stagedDays.removeAll(keepingCapacity: true) }
        try connection.executeAll(PostgreSQLDriver.upsertDay, stagedDays)
    }

    func checkpoint() throws(StorageError) {
        try flushStagedDays()
        try connection.commit()
        try connection.begin()
        knownUsersBeforeBatch = knownUsers
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
