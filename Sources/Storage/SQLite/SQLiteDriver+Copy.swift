import Foundation

/// `pipeline copy` on SQLite (see `Store+Copy.swift`): rows read in one snapshot, written in one
/// transaction. The SQL is built from `CopyTable`'s names and cached by its text; every value is
/// bound.
extension SQLiteDriver {
    func tablesHoldingRows() throws(StorageError) -> [CopyTable] {
        var occupied: [CopyTable] = []
        for table in CopyTable.allCases {
            let holdsRows = try connection.withStatement(text: "SELECT EXISTS (SELECT 1 FROM \"\(table.name)\")") {
                (statement) throws(StorageError) in
                try statement.step() && statement.int64(0) == 1
            }
            if holdsRows { occupied.append(table) }
        }
        return occupied
    }

    /// A deferred transaction: the first read takes the snapshot every later page reads from, and
    /// it does not block writers (WAL). https://www.sqlite.org/isolation.html
    func beginExport() throws(StorageError) {
        try connection.begin(immediate: false)
    }

    func endExport() {
        if connection.isInOpenTransaction {
            // A read transaction has nothing to lose; a failure here leaves SQLite already out of it.
            try? connection.commit()
        }
    }

    func exportRows(of table: CopyTable, after key: [CopyValue]?, limit: Int) throws(StorageError) -> [[CopyValue]] {
        let columns = table.columns
        let list = columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
        let keys = table.keyColumns.map { "\"\($0)\"" }.joined(separator: ", ")
        // The limit is ?1 and the key ?2…, so a first page binds no key.
        let filter =
            key == nil
            ? "" : "WHERE (\(keys)) > (\(table.keyColumns.indices.map { "?\($0 + 2)" }.joined(separator: ", "))) "
        let sql = "SELECT \(list) FROM \"\(table.name)\" \(filter)ORDER BY \(keys) LIMIT ?1"
        return try connection.withStatement(text: sql) { (statement) throws(StorageError) in
            try statement.bind(1, limit)
            for (index, value) in (key ?? []).enumerated() {
                try bind(value, at: Int32(index + 2), in: statement)
            }
            var rows: [[CopyValue]] = []
            while try statement.step() {
                rows.append(
                    columns.enumerated().map { index, column in
                        let position = Int32(index)
                        guard !statement.isNull(position) else { return .null }
                        switch column.kind {
                        case .integer, .boolean: return .integer(statement.int64(position))
                        case .real: return .real(statement.double(position))
                        case .text, .json: return .text(statement.string(position))
                        }
                    })
            }
            return rows
        }
    }

    /// Opens the import's one write transaction (the write lock up front) and returns the tables
    /// that already hold rows, seen inside it; when there are any, the transaction is rolled back.
    func beginImport() throws(StorageError) -> [CopyTable] {
        try connection.begin(immediate: true)
        do throws(StorageError) {
            let occupied = try tablesHoldingRows()
            if !occupied.isEmpty { abandonImport() }
            return occupied
        } catch {
            abandonImport()
            throw error
        }
    }

    func importRows(_ rows: [[CopyValue]], into table: CopyTable) throws(StorageError) {
        precondition(connection.isInOpenTransaction, "importRows runs between beginImport and finishImport")
        let columns = table.columns
        let sql =
            "INSERT INTO \"\(table.name)\" (\(columns.map { "\"\($0.name)\"" }.joined(separator: ", "))) VALUES ("
            + (1...columns.count).map { "?\($0)" }.joined(separator: ", ") + ")"
        try connection.withStatement(text: sql) { (statement) throws(StorageError) in
            for row in rows {
                precondition(row.count == columns.count, "a row of \(table.name) has one value per column")
                for (index, value) in row.enumerated() {
                    try bind(value, at: Int32(index + 1), in: statement)
                }
                try statement.run()
                statement.reset()
            }
        }
    }

    /// Commits the import. A new row's id is one past the largest in its table (a rowid table
    /// without AUTOINCREMENT), so no counter needs moving. https://www.sqlite.org/autoinc.html
    func finishImport() throws(StorageError) {
        try connection.commit()
    }

    func abandonImport() {
        if connection.isInOpenTransaction {
            // Nothing to recover if the rollback itself fails: SQLite has then already rolled back.
            try? connection.rollback()
        }
    }

    private func bind(_ value: CopyValue, at index: Int32, in statement: Statement) throws(StorageError) {
        switch value {
        case .null: try statement.bind(index, nil as Int64?)
        case .integer(let number): try statement.bind(index, number)
        case .real(let number): try statement.bind(index, number)
        case .text(let text): try statement.bind(index, text)
        }
    }
}
