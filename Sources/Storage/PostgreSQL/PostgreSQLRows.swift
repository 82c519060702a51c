import CLibPQ
import Domain
import Foundation

/// The rows of one statement's result, in libpq's text format or, for a statement that asks for it
/// (`SQL.binaryRows`), its binary one. Owns its `PGresult`.
final class PostgreSQLRows {
    private let result: OpaquePointer
    /// The row the `RowReader` methods read.
    var current = 0
    /// Each column's type when the rows are binary, else empty: a binary number is read by its type.
    private let binaryTypes: [Oid]

    init(_ result: OpaquePointer) {
        self.result = result
        let columns = PQnfields(result)
        binaryTypes = columns > 0 && PQfformat(result, 0) == 1 ? (0..<columns).map { PQftype(result, $0) } : []
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
        guard !binaryTypes.isEmpty else { return Int64(string(row, column)) ?? 0 }
        return withBytes(row, column) { bytes in
            switch binaryTypes[Int(column)] {
            case Self.int2: Int64(Int16(bitPattern: UInt16(Self.bigEndian(bytes))))
            case Self.int4: Int64(Int32(bitPattern: UInt32(Self.bigEndian(bytes))))
            case Self.int8: Int64(bitPattern: Self.bigEndian(bytes))
            default: preconditionFailure("a binary column of type \(binaryTypes[Int(column)]) read as an integer")
            }
        }
    }

    func double(_ row: Int, _ column: Int32) -> Double {
        guard !binaryTypes.isEmpty else { return Double(string(row, column)) ?? 0 }
        return withBytes(row, column) { bytes in
            switch binaryTypes[Int(column)] {
            case Self.float8: Double(bitPattern: Self.bigEndian(bytes))
            case Self.float4: Double(Float(bitPattern: UInt32(Self.bigEndian(bytes))))
            case Self.int2, Self.int4, Self.int8: Double(int64(row, column))
            default: preconditionFailure("a binary column of type \(binaryTypes[Int(column)]) read as a number")
            }
        }
    }

    /// A `date` column: its binary form is the days since 2000-01-01 as a 4-byte integer, 10,957 days after
    /// `Day`'s 1970-01-01.
    func day(_ row: Int, _ column: Int32) -> Day? {
        guard !binaryTypes.isEmpty, binaryTypes[Int(column)] == Self.date else {
            return withBytes(row, column) { Day(utf8: $0) }
        }
        return Day(ordinal: Int(int32(row, column)) + 10_957)
    }

    private func int32(_ row: Int, _ column: Int32) -> Int32 {
        withBytes(row, column) { Int32(bitPattern: UInt32(truncatingIfNeeded: Self.bigEndian($0))) }
    }

    // The types of `pg_type` whose binary form is read here (text's is its UTF-8, as in the text format).
    private static let date: Oid = 1082
    private static let int8: Oid = 20
    private static let int2: Oid = 21
    private static let int4: Oid = 23
    private static let float4: Oid = 700
    private static let float8: Oid = 701

    /// A binary number's bytes, most significant first (network order), as an unsigned integer.
    private static func bigEndian(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A `boolean` column: libpq's text form is `t` or `f`, its binary one byte, 1 or 0.
    func bool(_ row: Int, _ column: Int32) -> Bool {
        let first = withBytes(row, column) { $0.first ?? 0 }
        return binaryTypes.isEmpty ? first == UInt8(ascii: "t") : first == 1
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
    func optionalInt(_ column: Int32) -> Int? { isNull(column) ? nil : Int(int64(current, column)) }
    func double(_ column: Int32) -> Double { double(current, column) }
    func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }
    func string(_ column: Int32) -> String { string(current, column) }
    func bool(_ column: Int32) -> Bool { bool(current, column) }
    func firstByte(_ column: Int32) -> UInt8 { withBytes(current, column) { $0.first ?? 0 } }
    func day(_ column: Int32) -> Day? { day(current, column) }
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
