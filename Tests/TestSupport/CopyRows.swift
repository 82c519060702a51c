public import Storage

/// Every row of every table `pipeline copy` moves, as `Store.exportRows` reads them, in key order:
/// for comparing two databases value for value and id for id.
public func copyRows(of store: Store, pageSize: Int = 1_000) async throws -> [CopyTable: [[CopyValue]]] {
    var tables: [CopyTable: [[CopyValue]]] = [:]
    for table in CopyTable.allCases {
        var rows: [[CopyValue]] = []
        var after: [CopyValue]?
        while true {
            let page = try await store.exportRows(of: table, after: after, limit: pageSize)
            rows += page
            guard page.count == pageSize, let last = page.last else { break }
            after = table.key(of: last)
        }
        tables[table] = rows
    }
    return tables
}

/// The largest integer in `column` of `rows` of `table` (0 when there is none).
public func largest(_ column: String, of table: CopyTable, in rows: [CopyTable: [[CopyValue]]]) -> Int64 {
    guard let index = table.columns.firstIndex(where: { $0.name == column }) else {
        preconditionFailure("\(table.name) has no column \(column)")
    }
    return (rows[table] ?? []).compactMap { row -> Int64? in
        if case .integer(let value) = row[index] { value } else { nil }
    }.max() ?? 0
}
