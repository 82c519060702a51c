public import Domain
import Foundation

/// How many rows of one table a copy wrote.
public struct CopiedTable: Sendable, Hashable {
    public var table: CopyTable
    public var rows: Int
}

/// `pipeline copy`: a whole database, row for row and id for id, from one store into an empty one,
/// on either backend. Every table of `CopyTable` is read page by page in key order from one
/// snapshot of the source, and written into the target in one transaction, so the target ends
/// with all of it or — after a failure, a kill or a crash — none of it.
extension Store {
    /// Opens the database at `address` as `init(path:)` does, but only if it exists: a missing
    /// SQLite file, or a PostgreSQL database pipeline never set up, is refused with
    /// `StorageError.noDatabase` instead of being created (a copy's source, and every command that
    /// reads or runs tasks, where a mistyped path must not read as an empty database). An SQLite file
    /// this process cannot write is opened for reading only.
    public static func existing(_ address: String, clock: any Clock = SystemClock()) throws(StorageError) -> Store {
        // An SQLite address is the file's path as written.
        let parsed = StorageAddress(address)
        switch parsed {
        case .sqlite:
            if !FileManager.default.fileExists(atPath: address) { throw .noDatabase(path: address) }
            // A file this process cannot write, or in a folder it cannot write (where SQLite keeps the
            // database's -wal and -shm files), is read as it is, and every write refused.
            let folder = (address as NSString).deletingLastPathComponent
            if access(address, W_OK) != 0 || access(folder.isEmpty ? "." : folder, W_OK) != 0 {
                return try Store(readingOnly: address, clock: clock)
            }
        case .postgresql:
            // A server database pipeline never set up is as missing as an absent file: opening it as a
            // store would create the tables there.
            return try Store(path: address, clock: clock, schemaVersion: nil, existingOnly: true)
        }
        return try Store(path: address, clock: clock)
    }

    /// Copies every row of `source` into `target`, which must hold no row in any `CopyTable`,
    /// keeping ids so that references hold; returns the rows copied per table, in `CopyTable`
    /// order. `progress` is called after each page with the table and its rows so far; `counted`, when given,
    /// once before the first page with the rows of every table in the snapshot copied (a progress bar's total).
    ///
    /// The source is read in one snapshot (workers may go on using it); the target is written in
    /// one transaction, checked empty inside it, and committed only at the end. A target that holds
    /// data is refused with `StorageError.copyTargetNotEmpty` before anything changes; any other
    /// failure rolls everything back. Neither store may be used by anything else during the call.
    public static func copy(
        from source: Store, to target: Store, pageSize: Int = 5_000,
        progress: (@Sendable (CopyTable, Int) -> Void)? = nil, counted: (@Sendable (Int) -> Void)? = nil
    ) async throws(StorageError) -> [CopiedTable] {
        precondition(pageSize > 0, "a page holds at least one row")
        try await target.beginImport()
        do throws(StorageError) {
            try await source.beginExport()
            var copied: [CopiedTable] = []
            do throws(StorageError) {
                if let counted {
                    var total = 0
                    for table in CopyTable.allCases { total += try await source.exportRowCount(of: table) }
                    counted(total)
                }
                for table in CopyTable.allCases {
                    var count = 0
                    var after: [CopyValue]?
                    while true {
                        let rows = try await source.exportRows(of: table, after: after, limit: pageSize)
                        guard let last = rows.last else { break }
                        try await target.importRows(rows, into: table)
                        count += rows.count
                        progress?(table, count)
                        if rows.count < pageSize { break }
                        after = table.key(of: last)
                    }
                    copied.append(CopiedTable(table: table, rows: count))
                }
            } catch {
                await source.endExport()
                throw error
            }
            await source.endExport()
            try await target.finishImport()
            return copied
        } catch {
            await target.abandonImport()
            throw error
        }
    }

    /// The `CopyTable`s that hold at least one row, in `CopyTable` order: one statement, so one snapshot. A copy's
    /// target must hold none.
    public func tablesHoldingRows() throws(StorageError) -> [CopyTable] {
        let tables = CopyTable.allCases
        let sql = "SELECT " + tables.map { "EXISTS (SELECT 1 FROM \"\($0.name)\")" }.joined(separator: ", ")
        let holds = try driver.rows(built: sql, []) { row in tables.indices.map { row.bool(Int32($0)) } }.first ?? []
        return tables.indices.filter { holds[$0] }.map { tables[$0] }
    }

    /// Starts reading for a copy: until `endExport()`, every `exportRows` reads the database as it
    /// was at the first of them (a read transaction; it blocks no writer). Not reentrant.
    public func beginExport() throws(StorageError) {
        try driver.begin(.snapshot)
    }

    /// Ends the snapshot `beginExport()` started: a read-only transaction has nothing to commit.
    public func endExport() {
        driver.rollback()
    }

    /// The rows of `table` (in `beginExport()`'s snapshot, when inside it). The SQL is built from `CopyTable`'s
    /// names.
    public func exportRowCount(of table: CopyTable) throws(StorageError) -> Int {
        try driver.rows(built: "SELECT count(*) FROM \"\(table.name)\"", []) { Int($0.int64(0)) }.first ?? 0
    }

    /// Up to `limit` rows of `table` in key order, starting after the row whose key (`table.key(of:)`)
    /// is `after`, or at the first row when `nil` (keyset pagination: each page is an index range,
    /// however far into the table). Each row has one value per `table.columns`. Outside
    /// `beginExport()`, each call reads on its own. The SQL is built from `CopyTable`'s names.
    public func exportRows(of table: CopyTable, after key: [CopyValue]?, limit: Int) throws(StorageError)
        -> [[CopyValue]]
    {
        precondition(key == nil || key?.count == table.keyColumns.count, "a key has one value per key column")
        let columns = table.columns
        let keys = table.keyColumns.map { "\"\($0)\"" }.joined(separator: ", ")
        // The limit is the first parameter and the key the next, so a first page binds no key.
        let filter =
            key == nil
            ? ""
            : "WHERE (\(keys)) > (\(table.keyColumns.indices.map { "$\($0 + 2)" }.joined(separator: ", "))) "
        let sql =
            "SELECT \(columns.map(driver.exportExpression).joined(separator: ", ")) FROM \"\(table.name)\" \(filter)"
            + "ORDER BY \(keys) LIMIT $1"
        return try driver.rows(built: sql, [limit] + (key ?? []).map { $0 as any SQLBindable }) { row in
            columns.indices.map { index -> CopyValue in
                let column = Int32(index)
                guard !row.isNull(column) else { return .null }
                switch columns[index].kind {
                case .integer, .boolean: return .integer(row.int64(column))
                case .real: return .real(row.double(column))
                case .text, .json, .day: return .text(row.string(column))
                }
            }
        }
    }

    /// Opens the one transaction a copy writes in, and refuses — rolling it back, having changed
    /// nothing — when any `CopyTable` holds a row (`StorageError.copyTargetNotEmpty`, naming this
    /// store's `location`). The check runs inside the transaction, after it has locked out other
    /// writers, so two copies into one database cannot both pass it. Not reentrant; until
    /// `finishImport()` or `abandonImport()` the store serves the import only.
    public func beginImport() throws(StorageError) {
        try driver.begin(.copyImport)
        let occupied: [CopyTable]
        do {
            occupied = try tablesHoldingRows()
        } catch {
            driver.rollback()
            throw error
        }
        guard occupied.isEmpty else {
            driver.rollback()
            throw .copyTargetNotEmpty(location: location, tables: occupied.map(\.name))
        }
    }

    /// Inserts `rows` into `table` exactly as given, ids included, inside the open import (after
    /// `beginImport()`). A row is refused by the same constraints as any write (a foreign key:
    /// import tables in `CopyTable` order); the error leaves the import to be abandoned.
    public func importRows(_ rows: [[CopyValue]], into table: CopyTable) throws(StorageError) {
        try driver.importRows(rows, into: table)
    }

    /// Ends the import: moves each id counter past the ids copied (on PostgreSQL, the identity
    /// sequences, with `setval`; SQLite takes the next id from the table itself), then commits.
    /// On failure nothing of the import is kept.
    public func finishImport() throws(StorageError) {
        do {
            try driver.advanceIdentities()
            try driver.commit()
        } catch {
            driver.rollback()
            throw error
        }
    }

    /// Rolls the open import back: the database is as before `beginImport()`.
    public func abandonImport() {
        driver.rollback()
    }
}

extension CopyValue: SQLBindable {
    var sqlValue: SQLValue {
        switch self {
        case .null: .null
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        case .text(let text): .text(text)
        }
    }
}
