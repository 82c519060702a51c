import Foundation

/// A copy's rows on SQLite (`Store+Copy.swift`): one INSERT per row, its SQL built from `CopyTable`'s names and
/// cached by its text; every value is bound.
extension SQLiteDriver {
    func importRows(_ rows: [[CopyValue]], into table: CopyTable) throws(StorageError) {
        precondition(connection.isInOpenTransaction, "importRows runs between beginImport and finishImport")
        let columns = table.columns
        let sql =
            "INSERT INTO \"\(table.name)\" (\(columns.map { "\"\($0.name)\"" }.joined(separator: ", "))) VALUES ("
            + (1...columns.count).map { "?\($0)" }.joined(separator: ", ") + ")"
        try connection.withStatement(text: sql) { (statement) throws(StorageError) in
            for row in rows {
                precondition(row.count == columns.count, "a row of \(table.name) has one value per column")
                try statement.bind(row.map(\.sqlValue))
                try statement.run()
                statement.reset()
            }
        }
    }

    /// Booleans are 0/1 and JSON is text already.
    func exportExpression(of column: CopyTable.Column) -> String {
        "\"\(column.name)\""
    }
}
