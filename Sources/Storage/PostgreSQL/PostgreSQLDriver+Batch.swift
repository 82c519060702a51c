import Domain
import Foundation

extension PostgreSQLDriver {
    func beginBatch() throws(StorageError) {
        knownUsersBeforeBatch = knownUsers
        try connection.begin()
        batchMilliseconds = Store.milliseconds(clock.now)
    }

    func commitBatch() throws(StorageError) {
        batchMilliseconds = nil
        try connection.commit()
    }

    func rollbackBatch() {
        batchMilliseconds = nil
        knownUsers = knownUsersBeforeBatch
        connection.rollback()
    }

    func stage(_ record: InputRecord) throws(StorageError) -> StorageError? {
        try constraintRefusal { () throws(StorageError) in try apply(record) }
    }

    func stage(_ write: DayWrite) throws(StorageError) -> StorageError? {
        try constraintRefusal { () throws(StorageError) in try apply(write) }
    }

    /// Runs `write` inside a savepoint, returning a constraint's refusal instead of throwing it.
    /// PostgreSQL aborts the whole transaction at a failed statement, so undoing that statement
    /// alone — what SQLite does by itself — takes a savepoint around it.
    /// https://www.postgresql.org/docs/15/sql-savepoint.html
    private func constraintRefusal(_ write: () throws(StorageError) -> Void) throws(StorageError) -> StorageError? {
        let usersBefore = knownUsers
        try connection.execute("SAVEPOINT stage")
        do throws(StorageError) {
            try write()
            try connection.execute("RELEASE SAVEPOINT stage")
            return nil
        } catch where error.isConstraint {
            try connection.execute("ROLLBACK TO SAVEPOINT stage")
            knownUsers = usersBefore
            return error
        }
    }

    func checkpoint() throws(StorageError) {
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
