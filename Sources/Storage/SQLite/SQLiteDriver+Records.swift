import Domain

extension SQLiteDriver {
    /// Writes one input record in the open transaction.
    func apply(_ record: InputRecord) throws(StorageError) {
        switch record {
        case .user(let update): try apply(update)
        case .settings(let update): try apply(update)
        case .entry(let entry): try apply(entry)
        case .health(let metrics): try apply(metrics)
        case .watch(let item): try apply(item)
        }
    }
}
