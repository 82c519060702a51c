import Domain
import Foundation

/// `pipeline copy` on PostgreSQL (see `Store+Copy.swift`): rows read in one REPEATABLE READ
/// snapshot, written in one transaction that holds every copied table locked against other
/// writers. The SQL is built from `CopyTable`'s names; every value is a bound parameter.
extension PostgreSQLDriver {
    func tablesHoldingRows() throws(StorageError) -> [CopyTable] {
        // One statement, so one snapshot.
        let sql =
            "SELECT "
            + CopyTable.allCases.map { "EXISTS (SELECT 1 FROM \"\($0.name)\")" }.joined(separator: ", ")
        let rows = try connection.queryUncached(sql)
        return CopyTable.allCases.enumerated().filter { rows.bool(0, Int32($0.offset)) }.map(\.element)
    }

    /// Every page of the export reads the database as it was at the first one, whatever other
    /// workers commit meanwhile. https://www.postgresql.org/docs/15/transaction-iso.html#XACT-REPEATABLE-READ
    func beginExport() throws(StorageError) {
        try connection.begin()
        do throws(StorageError) {
            try connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        } catch {
            connection.rollback()
            throw error
        }
    }

    func endExport() {
        // A read-only transaction has nothing to commit.
        connection.rollback()
    }

    func exportRows(of table: CopyTable, after key: [CopyValue]?, limit: Int) throws(StorageError) -> [[CopyValue]] {
        let columns = table.columns
        // Booleans leave as 0/1 and JSON as its text, exactly as stored (`json` keeps it verbatim).
        let list = columns.map { column in
            switch column.kind {
            case .boolean: "\"\(column.name)\"::integer"
            case .json: "\"\(column.name)\"::text"
            case .integer, .real, .text: "\"\(column.name)\""
            }
        }.joined(separator: ", ")
        let keys = table.keyColumns.map { "\"\($0)\"" }.joined(separator: ", ")
        // The limit is $1 and the key $2…, so a first page binds no key.
        let filter =
            key == nil
            ? "" : "WHERE (\(keys)) > (\(table.keyColumns.indices.map { "$\($0 + 2)" }.joined(separator: ", "))) "
        let sql = "SELECT \(list) FROM \"\(table.name)\" \(filter)ORDER BY \(keys) LIMIT $1"
        let rows = try connection.queryUncached(sql, [.pg(limit)] + (key ?? []).map(Self.text))
        return (0..<rows.count).map { row in
            columns.enumerated().map { index, column in
                let position = Int32(index)
                guard !rows.isNull(row, position) else { return .null }
                let text = rows.string(row, position)
                switch column.kind {
                case .integer, .boolean:
                    guard let number = Int64(text) else { preconditionFailure("\(table.name) returned a bad integer") }
                    return .integer(number)
                case .real:
                    guard let number = Double(text) else { preconditionFailure("\(table.name) returned a bad number") }
                    return .real(number)
                case .text, .json:
                    return .text(text)
                }
            }
        }
    }

    /// Opens the import's one transaction, locks every copied table against other writers (readers
    /// go on), and returns the tables that already hold rows, seen after the lock: two copies into
    /// one database cannot both find it empty. When there are any, the transaction is rolled back.
    /// https://www.postgresql.org/docs/15/explicit-locking.html#LOCKING-TABLES
    func beginImport() throws(StorageError) -> [CopyTable] {
        try connection.begin()
        do throws(StorageError) {
            try connection.execute(
                "LOCK TABLE " + CopyTable.allCases.map { "\"\($0.name)\"" }.joined(separator: ", ")
                    + " IN EXCLUSIVE MODE")
            let occupied = try tablesHoldingRows()
            if !occupied.isEmpty { connection.rollback() }
            return occupied
        } catch {
            connection.rollback()
            throw error
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
                case .text, .json: "text"
                case .boolean: "boolean"
                }
            return "$\(index + 1)::\(element)[]"
        }.joined(separator: ", ")
        let values = columns.map { column in
            column.kind == .json ? "copied.\"\(column.name)\"::json" : "copied.\"\(column.name)\""
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

    /// Moves each identity past every id its table handed out — counting the ids that outlived
    /// their rows in other tables (a dead letter keeps its watch item's id, a run its request's) —
    /// so a new row never takes one again; then commits.
    /// https://www.postgresql.org/docs/15/functions-sequence.html
    func finishImport() throws(StorageError) {
        do throws(StorageError) {
            for table in CopyTable.allCases {
                guard let issued = table.issuedIDs else { continue }
                let largest = issued.map { "(SELECT max(\"\($0.column)\") FROM \"\($0.table.name)\")" }
                try connection.queryUncached(
                    "SELECT setval(pg_get_serial_sequence($1, 'id'), greatest(\(largest.joined(separator: ", ")), 0) + 1, "
                        + "false)",
                    [table.name])
            }
            try connection.commit()
        } catch {
            connection.rollback()
            throw error
        }
    }

    func abandonImport() {
        connection.rollback()
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
