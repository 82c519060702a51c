import Domain

/// The instants an export writes, parsed by hand: `DateFormatter` per record would cost more than
/// the rest of the import together.
enum ExportTimestamp {
    /// Seconds since 1970-01-01T00:00:00Z for `2019-01-05 08:12:00 +0100` (exports since iOS 9) or
    /// `20190105081200+0100` (iOS 8); `nil` for any other shape or an impossible date or time.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        switch text.count {
        case 25:
            guard text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"), text[10] == UInt8(ascii: " "),
                text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"), text[19] == UInt8(ascii: " ")
            else { return nil }
            return instant(text, year: 0, month: 5, day: 8, hour: 11, minute: 14, second: 17, zone: 20)
        case 19:
            return instant(text, year: 0, month: 4, day: 6, hour: 8, minute: 10, second: 12, zone: 14)
        default:
            return nil
        }
    }

    /// Builds the instant from the fields at the given offsets: four digits of year, two of month,
    /// day, hour, minute and second, then `±HHMM`.
    private static func instant(
        _ text: UnsafeBufferPointer<UInt8>, year: Int, month: Int, day: Int, hour: Int, minute: Int,
        second: Int, zone: Int
    ) -> Int64? {
        func digits(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for index in start..<(start + count) {
                let digit = Int(text[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        let sign = text[zone]
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
            let years = digits(year, 4), let months = digits(month, 2), let days = digits(day, 2),
            let hours = digits(hour, 2), let minutes = digits(minute, 2), let seconds = digits(second, 2),
            let zoneHours = digits(zone + 1, 2), let zoneMinutes = digits(zone + 3, 2),
            hours < 24, minutes < 60, seconds <= 60, zoneHours <= 18, zoneMinutes < 60,
            let date = Day(year: years, month: months, day: days)
        else { return nil }
        let offset = (zoneHours * 3600 + zoneMinutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        return Int64(date.ordinal) * 86_400 + Int64(hours * 3600 + minutes * 60 + seconds - offset)
    }
}
