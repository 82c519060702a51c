/// Rows for `COPY … FROM STDIN` in PostgreSQL's text format (`PostgreSQLConnection.copy`), written column by
/// column: a row a line, its columns separated by tabs, `\N` for NULL. In a text value each backslash, tab, line
/// feed and carriage return is written as a backslash sequence, so no value ends its column or its row early or
/// reads as NULL; a NUL character (which the decoder refuses, and PostgreSQL's text cannot hold) as `\0`, which the
/// server refuses for its row instead of reading the value cut short.
/// https://www.postgresql.org/docs/15/sql-copy.html#id-1.9.3.55.9.2
struct CopyTextRows {
    /// The rows so far, each ended by a line feed.
    private(set) var bytes: [UInt8] = []
    /// Whether the row being written has a column already (the next one is preceded by a tab).
    private var inRow = false

    init(reservingCapacity capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Empties the rows, keeping their storage for the next ones.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        inRow = false
    }

    mutating func append(_ text: String?) {
        guard var text else { return appendNull() }
        startColumn()
        text.withUTF8 { utf8 in
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                case UInt8(ascii: "\t"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                case 0: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "0")]
                default: bytes.append(byte)
                }
            }
        }
    }

    /// An integer's digits; for a double, the shortest text that reads back as the same double, which PostgreSQL
    /// reads exactly (as `String?.pg(_: Double?)`).
    mutating func append(_ number: (some Numeric & CustomStringConvertible)?) {
        guard let number else { return appendNull() }
        startColumn()
        bytes += number.description.utf8
    }

    mutating func append(_ flag: Bool) {
        startColumn()
        bytes.append(flag ? UInt8(ascii: "t") : UInt8(ascii: "f"))
    }

    mutating func endRow() {
        bytes.append(UInt8(ascii: "\n"))
        inRow = false
    }

    private mutating func appendNull() {
        startColumn()
        bytes += [UInt8(ascii: "\\"), UInt8(ascii: "N")]
    }

    private mutating func startColumn() {
        if inRow { bytes.append(UInt8(ascii: "\t")) }
        inRow = true
    }
}
