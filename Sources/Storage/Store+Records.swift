public import Domain

extension Store {
    /// Writes a batch of input records in order, in one transaction.
    ///
    /// A record the database rejects (a CHECK constraint, say) is reported by its index and undone
    /// on its own — SQLite rolls back just the failing statement — while the others are kept. With
    /// `atomically`, any rejection rolls the whole batch back and nothing is stored.
    ///
    /// - Returns: the rejected records' indexes with their errors; empty when all were stored.
    public func write(_ records: [InputRecord], atomically: Bool = false) throws(StorageError) -> [Int: StorageError] {
        var rejected: [Int: StorageError] = [:]
        do throws(StorageError) {
            try write { () throws(StorageError) in
                for (index, record) in records.enumerated() {
                    do throws(StorageError) {
                        try apply(record)
                    } catch  where error.isConstraint {
                        rejected[index] = error
                        if atomically { throw error }
                    }
                }
            }
        } catch  where atomically && !rejected.isEmpty {
            return rejected
        }
        return rejected
    }

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
