import Foundation
import TestSupport
import Testing

@testable import Storage

/// `Statement`'s text binding: strings are copied into room the statement keeps and bound in place, or handed
/// to SQLite to copy when they do not fit; either way the row stores exactly the strings bound.
@Suite("Binding text to a statement")
struct StatementBindingTests {
    /// Rows of three strings: empty, ASCII, multi-byte, long enough to overflow the statement's room on their
    /// own (3,000 bytes) or only together (three of 400).
    static let rows: [[String]] = [
        ["", "a", "ü€😀"],
        ["user-00001", "2026-03-01", String(repeating: "x", count: 3000)],
        [String(repeating: "é", count: 200), String(repeating: "b", count: 400), String(repeating: "c", count: 400)],
        ["health", "user", ""],
        [String(repeating: "😀", count: 300), "last", "z"],
    ]

    @Test("every string reads back as it was bound, run after run of the same statement")
    func textRoundTrips() throws {
        let database = TestDatabase(.sqlite)
        let connection = try Connection(path: database.path)
        try connection.execute(
            "CREATE TABLE t (k INTEGER PRIMARY KEY, a TEXT NOT NULL, b TEXT NOT NULL, c TEXT NOT NULL)")
        // Twice over, so the second round's runs reuse room the first round's left behind.
        for round in 0..<2 {
            for (index, row) in Self.rows.enumerated() {
                try connection.withStatement("INSERT INTO t (k, a, b, c) VALUES (?1, ?2, ?3, ?4)") {
                    (statement) throws(StorageError) in
                    try statement.bind(1, round * 100 + index)
                    try statement.bind(2, row[0])
                    try statement.bind(3, row[1])
                    try statement.bind(4, row[2])
                    try statement.run()
                }
            }
        }
        let stored = try connection.withStatement("SELECT a, b, c FROM t ORDER BY k") {
            (statement) throws(StorageError) in
            var rows: [[String]] = []
            while try statement.step() { rows.append([statement.string(0), statement.string(1), statement.string(2)]) }
            return rows
        }
        #expect(stored == Self.rows + Self.rows)
        // Empty text is '' and not NULL.
        let empty = try connection.withStatement("SELECT count(*) FROM t WHERE a = '' AND c IS NOT NULL") {
            (statement) throws(StorageError) in
            _ = try statement.step()
            return statement.string(0)
        }
        #expect(empty == "2")
    }

    /// `optionalInt` and `optionalDouble` ask SQLite for the type only when the value reads as zero: NULL and the
    /// zeros (0, 0.0, and -0.0, which SQLite stores as a whole number) must still come back apart, in STRICT
    /// columns as pipeline's tables declare them.
    @Test("NULL reads as nil and zero as zero, beside other values, for integers and numbers")
    func optionalValues() throws {
        let database = TestDatabase(.sqlite)
        let connection = try Connection(path: database.path)
        try connection.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, i INTEGER, r REAL) STRICT")
        let rows: [(Int?, Double?)] = [(nil, nil), (0, 0), (-3, -0.0), (7, 2.5), (Int(Int64.max), -1e300)]
        for (index, row) in rows.enumerated() {
            try connection.withStatement("INSERT INTO t (k, i, r) VALUES (?1, ?2, ?3)") {
                (statement) throws(StorageError) in
                try statement.bind(1, index)
                try statement.bind(2, row.0)
                try statement.bind(3, row.1)
                try statement.run()
            }
        }
        let read = try connection.withStatement("SELECT i, r FROM t ORDER BY k") {
            (statement) throws(StorageError) in
            var read: [(Int?, Double?)] = []
            while try statement.step() { read.append((statement.optionalInt(0), statement.optionalDouble(1))) }
            return read
        }
        #expect(read.map(\.0) == rows.map(\.0))
        #expect(read.map(\.1) == rows.map(\.1))
    }
}
