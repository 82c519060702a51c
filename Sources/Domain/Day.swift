public import Foundation

/// A calendar date, `YYYY-MM-DD`, with no time and no time zone.
///
/// A `DailyLog` belongs to a `Day` in its user's time zone. `Day` is pure arithmetic on the
/// proleptic Gregorian calendar (no `Calendar` lookups), so it is cheap enough to use as a key
/// for millions of rows.
public struct Day: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01 (negative before it).
    public let ordinal: Int

    public init(ordinal: Int) {
        self.ordinal = ordinal
    }

    /// A date from its parts; `nil` when the parts name no real date (2026-02-30, month 13).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Day.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        ordinal = Day.ordinal(year: year, month: month, day: day)
    }

    /// Parses exactly `YYYY-MM-DD`; `nil` for any other shape or an impossible date.
    public init?(_ text: some StringProtocol) {
        var utf8 = String(text)
        guard let day = utf8.withUTF8({ Day(utf8: $0) }) else { return nil }
        self = day
    }

    /// Parses exactly `YYYY-MM-DD` from UTF-8 bytes, without making a string: a day is read for
    /// every stored row.
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day that contains `instant` in `timeZone`.
    public init(containing instant: Date, in timeZone: TimeZone) {
        let local = instant.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: instant))
        ordinal = Int((local / 86_400).rounded(.down))
    }

    public var parts: (year: Int, month: Int, day: Int) {
        // Howard Hinnant's civil_from_days: https://howardhinnant.github.io/date_algorithms.html
        let z = ordinal + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// ISO 8601 calendar date, `YYYY-MM-DD`.
    public var description: String {
        let (year, month, day) = parts
        // Written digit by digit: this runs for every row read or written.
        return String(unsafeUninitializedCapacity: 10) { buffer in
            func put(_ value: Int, at offset: Int, width: Int) {
                var value = value
                for position in stride(from: offset + width - 1, through: offset, by: -1) {
                    buffer[position] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            put(year, at: 0, width: 4)
            buffer[4] = UInt8(ascii: "-")
            put(month, at: 5, width: 2)
            buffer[7] = UInt8(ascii: "-")
            put(day, at: 8, width: 2)
            return 10
        }
    }

    /// Day of the week, 0 = Monday … 6 = Sunday (ISO 8601 order).
    public var weekday: Int {
        // 1970-01-01 was a Thursday (index 3).
        ((ordinal % 7) + 7 + 3) % 7
    }

    /// The Monday that begins the day's week (ISO 8601 weeks run Monday to Sunday).
    public var weekStart: Day {
        adding(days: -weekday)
    }

    public func adding(days: Int) -> Day {
        Day(ordinal: ordinal + days)
    }

    /// Whole days from `self` to `other` (positive when `other` is later).
    public func distance(to other: Day) -> Int {
        other.ordinal - ordinal
    }

    /// The instant this day starts in `timeZone` (local midnight).
    public func start(in timeZone: TimeZone) -> Date {
        localTime(hour: 0, in: timeZone)
    }

    /// "Hour H, local" (DESIGN §4): the first instant whose wall-clock reading in `timeZone` is at
    /// or after `hour`:`minute` on this day. Where a daylight-saving jump skips that time, it is the
    /// instant the clock jumps to; where the clock falls back over it, its first occurrence.
    public func localTime(hour: Int, minute: Int = 0, in timeZone: TimeZone) -> Date {
        let local = Int64(ordinal) * 86_400 + Int64(hour * 3600 + minute * 60)
        let instant = Day.firstInstant(atOrAfterLocal: local) { instant in
            Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
        }
        return Date(timeIntervalSince1970: Double(instant))
    }

    /// The first instant (seconds since 1970) whose local reading, `instant + offset(instant)`, is at
    /// or after `local` (local seconds since 1970), where `offset` gives a zone's seconds east of UTC.
    /// `localTime(hour:minute:in:)` for callers that keep their own offsets (the Apple Health import).
    ///
    /// It assumes the offset changes at most once within a day either side of the answer, as in every
    /// zone's rules now in use (LocalTimeTests checks every zone's changes in 2026–2027). The old way,
    /// a guess with the offset at the naive instant corrected once, kept the later of two disagreeing
    /// guesses: right in a skipped hour, but an hour late in the hours after a change that the naive
    /// instant had already passed (Los Angeles 03:00–09:59 on 2026-03-08, Sydney's evening of
    /// 2026-04-04).
    public static func firstInstant(atOrAfterLocal local: Int64, offset: (Int64) -> Int64) -> Int64 {
        // The answer lies within 14 hours of `local` (no zone is further from UTC), so these two
        // instants are half a day or more from it, one on either side of a change near it.
        let before = offset(local - 86_400)
        let after = offset(local + 86_400)
        let early = local - before
        guard before != after else { return early }
        let late = local - after
        // Each offset gives the reading `local` at one instant, if that offset is in force there. A
        // reading the clock shows twice (a fall-back) has both; the first occurrence is the answer.
        switch (offset(early) == before, offset(late) == after) {
        case (true, true): return min(early, late)
        case (true, false): return early
        case (false, true): return late
        case (false, false): break
        }
        // A reading the clock skips: the change happened in (late, early], and the instant it
        // happened is the first whose reading is past `local`. Offsets change on whole seconds.
        guard before < after else { return early }
        var skipped = late
        var jumped = early
        while jumped - skipped > 1 {
            let middle = skipped + (jumped - skipped) / 2
            if offset(middle) == after { jumped = middle } else { skipped = middle }
        }
        return jumped
    }

    public static func < (lhs: Day, rhs: Day) -> Bool {
        lhs.ordinal < rhs.ordinal
    }

    static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func ordinal(year: Int, month: Int, day: Int) -> Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}

extension Day: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let day = Day(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected a date YYYY-MM-DD, got \(text.count) characters")
        }
        self = day
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
