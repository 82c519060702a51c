import Domain
import Foundation

/// A copy's rows on PostgreSQL (`Store+Copy.swift`): a page in one statement. The SQL is built from `CopyTable`'s
/// names; every value is a bound parameter.
extension PostgreSQLDriver {
    /// Booleans leave as 0/1 and JSON as its text, exactly as stored (`json` keeps it verbatim); a day as `YYYY-MM-DD`.
    func exportExpression(of column: CopyTable.Column) -> String {
        switch column.kind {
        case .boolean: "\"\(column.name)\"::integer"
        case .json: "\"\(column.name)\"::text"
        case .integer, .real, .text, .day: "\"\(column.name)\""
        }
    }

    /// Inserts a page in one statement: each column travels as one array parameter, unnested back
    /// into rows, so the SQL is the same for every page and no page meets the 65,535-parameter
    /// limit. Ids are inserted as given (the identities are `BY DEFAULT`).
    func importRows(_ rows: [[CopyValue]], into table: CopyTable) throws(StorageError) {
        precondition(connection.isInTransaction, "importRows runs between beginImport and finishImport")
        guard !rows.isEmpty else { return }
        let columns = table.columns
        let names = columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
        let arrays = columns.enumerated().map { index, column in
            let element =
                switch column.kind {
                case .integer: "bigint"
                case .real: "double precision"
                case .text, .json, .day: "text"
                case .boolean: "boolean"
                }
            return "$\(index + 1)::\(element)[]"
        }.joined(separator: ", ")
        let values = columns.map { column in
            switch column.kind {
            case .json: "copied.\"\(column.name)\"::json"
            case .day: "copied.\"\(column.name)\"::date"
            case .integer, .real, .text, .boolean: "copied.\"\(column.name)\""
            }
        }.joined(separator: ", ")
        let sql =
            "INSERT INTO \"\(table.name)\" (\(names)) SELECT \(values) FROM unnest(\(arrays)) AS copied (\(names))"
        try Self.checkStorable(rows, of: table)
        let parameters: [String?] = columns.enumerated().map { index, column in
            Self.arrayLiteral(
                rows.map { row in
                    precondition(row.count == columns.count, "a row of \(table.name) has one value per column")
                    return column.kind == .boolean ? Self.boolean(row[index]) : Self.text(row[index])
                })
        }
        try connection.queryUncached(sql, parameters)
    }

    /// Refuses a page holding a text PostgreSQL cannot store, a NUL character (which SQLite stores, and
    /// versions before the decoder refused it accepted), naming its table, column and row by its key —
    /// not its value, which may be health data.
    private static func checkStorable(_ rows: [[CopyValue]], of table: CopyTable) throws(StorageError) {
        for row in rows {
            for (index, column) in table.columns.enumerated() {
                guard case .text(let text) = row[index], text.utf8.contains(0) else { continue }
                let key = zip(table.keyColumns, table.key(of: row)).map { name, value in
                    switch value {
                    case .text(let text): "\(name) \(PrintableExcerpt.of(text))"
                    case .integer(let number): "\(name) \(number)"
                    case .real(let number): "\(name) \(number)"
                    case .null: "\(name) null"
                    }
                }
                throw .postgresql(
                    sqlState: "22021",
                    message: "\(table.name).\(column.name) of the row with \(key.joined(separator: ", ")) holds a NUL "
                        + "character (U+0000), which PostgreSQL cannot store; remove it from the source and copy again",
                    sql: nil)
            }
        }
    }

    /// A value in libpq's text format.
    private static func text(_ value: CopyValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let number): .pg(number)
        case .real(let number): .pg(number)
        case .text(let text): text
        }
    }

    /// A 0/1 value as a `boolean`.
    private static func boolean(_ value: CopyValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let number): .pg(number != 0)
        case .real, .text: text(value)
        }
    }
}
