import CLibPQ
import Foundation

/// The rows of one statement's result, in libpq's text format. Owns its `PGresult`.
final class PostgreSQLRows {
    private let result: OpaquePointer
    /// The row the `RowReader` methods read.
    var current = 0

    init(_ result: OpaquePointer) {
        self.result = result
    }

    deinit {
        PQclear(result)
    }

    var count: Int { Int(PQntuples(result)) }

    /// Rows an INSERT, UPDATE or DELETE changed.
    var affected: Int {
        PQcmdTuples(result).flatMap { Int(String(cString: $0)) } ?? 0
    }

    func isNull(_ row: Int, _ column: Int32) -> Bool {
        PQgetisnull(result, Int32(row), column) == 1
    }

    func string(_ row: Int, _ column: Int32) -> String {
        guard let value = PQgetvalue(result, Int32(row), column) else { return "" }
        let length = Int(PQgetlength(result, Int32(row), column))
        return value.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    func int64(_ row: Int, _ column: Int32) -> Int64 {
        Int64(string(row, column)) ?? 0
    }

    func int(_ row: Int, _ column: Int32) -> Int {
        Int(string(row, column)) ?? 0
    }

    /// A `boolean` column: libpq's text form is `t` or `f`.
    func bool(_ row: Int, _ column: Int32) -> Bool {
        string(row, column) == "t"
    }

    /// Calls `body` with the value's bytes without copying them; valid only inside `body`.
    func withBytes<R>(_ row: Int, _ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let length = Int(PQgetlength(result, Int32(row), column))
        guard let value = PQgetvalue(result, Int32(row), column) else {
            return body(UnsafeBufferPointer(start: nil, count: 0))
        }
        return value.withMemoryRebound(to: UInt8.self, capacity: length) {
            body(UnsafeBufferPointer(start: $0, count: length))
        }
    }
}

/// A result read as `RowReader`s: the row at `current`, which `PostgreSQLDriver.rows` moves along.
extension PostgreSQLRows: RowReader {
    func isNull(_ column: Int32) -> Bool { isNull(current, column) }
    func int64(_ column: Int32) -> Int64 { int64(current, column) }
    func optionalInt(_ column: Int32) -> Int? { isNull(column) ? nil : int(current, column) }
    func double(_ column: Int32) -> Double { Double(string(column)) ?? 0 }
    func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }
    func string(_ column: Int32) -> String { string(current, column) }
    func bool(_ column: Int32) -> Bool { firstByte(column) == UInt8(ascii: "t") }
    func firstByte(_ column: Int32) -> UInt8 { withBytes(current, column) { $0.first ?? 0 } }
    func withBytes<R>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withBytes(current, column, body)
    }
}

extension SQLValue {
    /// The value in libpq's text format: a list as an array literal, rows as JSON.
    var postgresText: String? {
        switch self {
        case .null: nil
        case .integer(let number): String(number)
        case .real(let number): .pg(number)
        case .text(let text): text
        case .boolean(let flag): .pg(flag)
        case .integers(let numbers): PostgreSQLDriver.arrayLiteral(numbers.map(String.init))
        case .texts(let strings): PostgreSQLDriver.arrayLiteral(strings)
        case .rows: json
        }
    }
}

/// Parameters in libpq's text format.
extension Optional where Wrapped == String {
    static func pg(_ value: Int64?) -> String? { value.map { String($0) } }
    static func pg(_ value: Int?) -> String? { value.map { String($0) } }
    /// Swift prints the shortest text that reads back as the same double, and PostgreSQL (12+)
    /// both reads and prints float8 exactly that way, so a value survives the trip bit for bit.
    static func pg(_ value: Double?) -> String? { value.map { "\($0)" } }
    static func pg(_ value: Bool) -> String? { value ? "true" : "false" }
}
