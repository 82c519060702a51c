import Foundation
import Testing

@testable import Storage

/// The text format of `COPY … FROM STDIN` as `CopyTextRows` writes it: what PostgreSQL reads back as the values
/// given (https://www.postgresql.org/docs/15/sql-copy.html#id-1.9.3.55.9.2).
@Suite("COPY's text rows")
struct CopyTextRowsTests {
    static func text(_ write: (inout CopyTextRows) -> Void) -> String {
        var rows = CopyTextRows(reservingCapacity: 64)
        write(&rows)
        return String(decoding: rows.bytes, as: UTF8.self)
    }

    @Test("numbers are their shortest text, NULL \\N, columns tab-separated, rows ended by a line feed")
    func numbersAndNulls() {
        let row = Self.text { rows in
            rows.append(Int64(0))
            rows.append(Int64(-42))
            rows.append(Int64.max)
            rows.append(Int64.min)
            rows.append(Int?(7))
            rows.append(Int?.none)
            rows.append(1.5)
            rows.append(0.1 + 0.2)
            rows.append(true)
            rows.endRow()
            rows.append(false)
            rows.endRow()
        }
        #expect(
            row == "0\t-42\t9223372036854775807\t-9223372036854775808\t7\t\\N\t1.5\t0.30000000000000004\tt\nf\n")
    }

    @Test("text is copied as it is unless it holds a backslash, tab, line break, carriage return or NUL")
    func textEscapes() {
        let row = Self.text { rows in
            rows.append("plain ascii, é and 日本")
            rows.append("a\\b\tc\nd\re\u{0}f")
            rows.append("bell \u{7} stays")
            rows.append(String?.none)
            rows.endRow()
        }
        #expect(row == "plain ascii, é and 日本\ta\\\\b\\tc\\nd\\re\\0f\tbell \u{7} stays\t\\N\n")
    }
}
