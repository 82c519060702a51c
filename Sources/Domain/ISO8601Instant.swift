public import Foundation

/// Instants in RFC 3339 form, the profile of ISO 8601 that `--now` and `enqueuedAt` accept and every
/// command prints: strict parsing of
/// `2026-03-01T08:00:00Z`, `2026-03-01T09:00:00+01:00`, `2026-03-01T08:00:00.250Z`.
///
/// `ISO8601DateFormatter` is not used because it accepts `2026-02-30`, `2026-3-1`, surrounding
/// junk, and drops fractional digits past milliseconds; a clock that replays a month of launches
/// must get exactly the instant that was typed. https://www.rfc-editor.org/rfc/rfc3339#section-5.6
public enum ISO8601Instant {
    /// How the expected form is described in usage errors.
    public static let expectedForm =
        "an ISO 8601 instant such as 2026-03-01T08:00:00Z, 2026-03-01T09:00:00+01:00 or 2026-03-01T08:00:00.5Z"

    /// The instant `text` names, or `nil` unless it is exactly `YYYY-MM-DDThh:mm:ss[.fraction]`
    /// followed by `Z` or `±hh:mm`, and names a real date and time (no leap second).
    public static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0

        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<(index + count)] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }

        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let dayOfMonth = digits(2),
            expect("Tt"), let hour = digits(2), expect(":"), let minute = digits(2), expect(":"),
            let second = digits(2),
            let day = Day(year: year, month: month, day: dayOfMonth), hour < 24, minute < 60, second < 60
        else { return nil }

        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            let start = index + 1
            index = start
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            guard index > start, let value = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self))
            else { return nil }
            fraction = value
        }

        var offsetSeconds = 0
        if expect("Zz") {
            offsetSeconds = 0
        } else {
            guard index < bytes.count else { return nil }
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            guard expect("+-"), let offsetHours = digits(2), expect(":"), let offsetMinutes = digits(2),
                offsetHours < 24, offsetMinutes < 60
            else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        }
        guard index == bytes.count else { return nil }

        let localSeconds = day.ordinal * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(localSeconds - offsetSeconds) + fraction)
    }

    /// `2026-03-15T12:00:00Z` in UTC, with milliseconds only when the instant has them.
    public static func string(from date: Date) -> String {
        func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
            let remainder = (value % divisor + divisor) % divisor
            return ((value - remainder) / divisor, remainder)
        }
        let (seconds, milliseconds) = floorDivide(Int64((date.timeIntervalSince1970 * 1000).rounded()), 1000)
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        func pad(_ value: Int64, _ width: Int = 2) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let time = "\(pad(secondOfDay / 3600)):\(pad(secondOfDay / 60 % 60)):\(pad(secondOfDay % 60))"
        return "\(Day(ordinal: Int(days)))T\(time)" + (milliseconds == 0 ? "" : "." + pad(milliseconds, 3)) + "Z"
    }
}
