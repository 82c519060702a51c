import Domain
import Foundation

/// One statement of the seam, in each database's dialect: every operation a driver runs is one of these
/// (`SQL+*.swift`), named by what it does, as River's driver interface names its queries. A statement both
/// databases read alike is written once, in PostgreSQL's form (`init(_:)`); so is one that only writes or reads a
/// PostgreSQL `json` column, which takes an inserted parameter's type from its column and returns its text as
/// stored. Parameters are `$1, $2, …` on both (SQLite reads `$1` as a named parameter, which `Statement` binds by
/// its number), bound in order from the array the caller passes; the doc comment of each statement names them and
/// the columns it returns, which the callers in `Store+*.swift` decode through the types' `init(row:)`.
///
/// SQL is always a literal (statements are prepared once and cached by its address), never built from values.
struct SQL: Sendable {
    let sqlite: Text
    let postgresql: Text
    /// Whether PostgreSQL sends the rows in its binary format: for reads of many rows of numbers, whose text the
    /// server spends most of such a read writing, and the client parsing. Only for columns of `text`, `integer`,
    /// `bigint`, `smallint`, `double precision`, `boolean` and `date` (`PostgreSQLRows` reads no other type's binary).
    let binaryRows: Bool

    /// A statement both databases read the same way once SQLite's differences are taken out of PostgreSQL's form
    /// (`sqliteForm(of:)`).
    init(_ both: StaticString, binaryRows: Bool = false) {
        postgresql = Text(literal: both, text: both.description)
        sqlite = Text(literal: both, text: SQL.sqliteForm(of: both.description))
        self.binaryRows = binaryRows
    }

    init(sqlite: StaticString, postgresql: StaticString, binaryRows: Bool = false) {
        self.sqlite = Text(literal: sqlite, text: sqlite.description)
        self.postgresql = Text(literal: postgresql, text: postgresql.description)
        self.binaryRows = binaryRows
    }

    /// PostgreSQL's form of a statement as SQLite reads it:
    /// - a list `x = ANY($n::bigint[])` as `x IN (SELECT value FROM json_each($n))`, the JSON text a list binds as
    ///   on SQLite (`SQLValue.integers`), and rows `json_array_elements($n::json) AS s (value)`, with or without
    ///   `WITH ORDINALITY` and its column `key`, as `json_each($n) AS s`, whose columns are named so;
    /// - a cast, `$n::text`, as its value: PostgreSQL needs a type for a parameter it cannot infer (one only tested
    ///   for NULL) and for a value read from JSON text, SQLite takes each value's own;
    /// - a row lock, a last line `FOR UPDATE` (`OF` a table), left out: SQLite has one writer, whose transaction holds the lock.
    static func sqliteForm(of postgresql: String) -> String {
        postgresql
            .replacing(#/= ANY\((\$\d+)::\w+\[\]\)/#) { "IN (SELECT value FROM json_each(\($0.output.1)))" }
            .replacing(#/json_array_elements\((\$\d+)::json\)( WITH ORDINALITY)? AS (\w+) \(value(, key)?\)/#) {
                "json_each(\($0.output.1)) AS \($0.output.3)"
            }
            .replacing(#/::\w+(\[\])?/#, with: "")
            .replacing(#/\n *FOR UPDATE( OF \w+)?$/#, with: "")
    }

    /// The statement as one database reads it, and the literal it was written as, by whose address each
    /// connection caches the statement it prepared.
    struct Text: Sendable {
        let literal: StaticString
        let text: String
    }
}

/// A value bound to a statement's parameter. Each connection binds it in its own form: SQLite as an integer,
/// real or text (a boolean as 0 or 1, a list as JSON text its `json_each` reads), PostgreSQL as text (a list as
/// an array literal, read with `= ANY`).
enum SQLValue: Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case boolean(Bool)
    /// A list bound as one parameter: `IN (SELECT value FROM json_each($n))` on SQLite, `= ANY($n::bigint[])` on
    /// PostgreSQL.
    case integers([Int64])
    /// As `integers`, of text (`= ANY($n::text[])`).
    case texts([String])
    /// Rows of values as one JSON array of arrays, the same on both: `json_each($n)` and `value ->> k` on SQLite,
    /// `json_array_elements($n::json)` and its element's `->> k` on PostgreSQL. For batches of a few hundred rows whose
    /// statement takes several columns each; the bulk loads bind columns their own way (`StorageDriver`).
    case rows([[SQLValue]])

    /// The JSON text of a list or of rows (`integers`, `texts`, `rows`), of the other cases as an element.
    var json: String {
        var text = ""
        appendJSON(to: &text)
        return text
    }

    private func appendJSON(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .integer(let number): text += String(number)
        case .real(let number): text += number.isFinite ? "\(number)" : "null"
        case .text(let string): text += JSONValue.string(string).jsonText
        case .boolean(let flag): text += flag ? "true" : "false"
        case .integers(let numbers): text += "[" + numbers.map(String.init).joined(separator: ",") + "]"
        case .texts(let strings): text += JSONValue.array(strings.map(JSONValue.string)).jsonText
        case .rows(let rows):
            text += "["
            for (index, row) in rows.enumerated() {
                if index > 0 { text += "," }
                text += "["
                for (position, value) in row.enumerated() {
                    if position > 0 { text += "," }
                    value.appendJSON(to: &text)
                }
                text += "]"
            }
            text += "]"
        }
    }
}

/// A Swift value that binds as a statement parameter: the array a caller passes to a statement holds these.
protocol SQLBindable: Sendable {
    var sqlValue: SQLValue { get }
}

extension SQLValue: SQLBindable {
    var sqlValue: SQLValue { self }
}

extension String: SQLBindable {
    var sqlValue: SQLValue { .text(self) }
}

extension Int64: SQLBindable {
    var sqlValue: SQLValue { .integer(self) }
}

extension Int: SQLBindable {
    var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Double: SQLBindable {
    var sqlValue: SQLValue { .real(self) }
}

extension Bool: SQLBindable {
    var sqlValue: SQLValue { .boolean(self) }
}

/// An instant as the tables keep it: milliseconds since 1970 (`Store.milliseconds`).
extension Date: SQLBindable {
    var sqlValue: SQLValue { .integer(Store.milliseconds(self)) }
}

extension Day: SQLBindable {
    var sqlValue: SQLValue { .text(description) }
}

extension UserID: SQLBindable {
    var sqlValue: SQLValue { .text(rawValue) }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
    var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

/// One row of a statement's result, read column by column (0-based). SQLite's `Statement` is one (the row it
/// stepped to), and so is a PostgreSQL result at its current row: the decoders (`init(row:)` of each stored type)
/// are written once, against this.
protocol RowReader {
    func isNull(_ column: Int32) -> Bool
    func int64(_ column: Int32) -> Int64
    /// The column's integer, `nil` for NULL.
    func optionalInt(_ column: Int32) -> Int?
    func double(_ column: Int32) -> Double
    /// The column's number, `nil` for NULL.
    func optionalDouble(_ column: Int32) -> Double?
    func string(_ column: Int32) -> String
    /// A boolean column: SQLite keeps 0 or 1, PostgreSQL `t` or `f`.
    func bool(_ column: Int32) -> Bool
    /// The first byte of the column's text, 0 for empty text or NULL.
    func firstByte(_ column: Int32) -> UInt8
    /// Calls `body` with the column's UTF-8 bytes without copying them; valid only inside `body`.
    func withBytes<R>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R
    /// A day kept as `YYYY-MM-DD` (SQLite's text, a PostgreSQL `date` in the text format) or as a PostgreSQL `date`
    /// in the binary format; `nil` for one that does not read as a day (a row pipeline did not write).
    func day(_ column: Int32) -> Day?
}

extension RowReader {
    func int(_ column: Int32) -> Int { Int(int64(column)) }

    func optionalString(_ column: Int32) -> String? { isNull(column) ? nil : string(column) }

    func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    func optionalBool(_ column: Int32) -> Bool? { isNull(column) ? nil : bool(column) }

    /// An instant kept as milliseconds since 1970.
    func date(_ column: Int32) -> Date { Store.date(milliseconds: int64(column)) }

    func optionalDate(_ column: Int32) -> Date? { isNull(column) ? nil : date(column) }

    func day(_ column: Int32) -> Day? { withBytes(column) { Day(utf8: $0) } }

    /// A `*_source` column: 'user' or 'health' (the tables' CHECK), told apart by the first byte.
    func source(_ column: Int32) -> Source { firstByte(column) == UInt8(ascii: "u") ? .user : .health }
}
