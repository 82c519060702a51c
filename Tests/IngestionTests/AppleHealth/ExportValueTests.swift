import Domain
import Foundation
import Testing

@testable import Ingestion

/// The hand-written parsers and the cached time-zone arithmetic, against Foundation's.
@Suite("Export values")
struct ExportValueTests {
    static func parseNumber(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { ExportNumber.parse($0) }
    }

    static func parseTimestamp(_ text: String) -> Int64? {
        Array(text.utf8).withUnsafeBufferPointer { ExportTimestamp.parse($0) }
    }

    @Test("decimals parse to exactly the double the standard library's parser gives")
    func numbersMatchStandardLibrary() {
        // Bit-for-bit: the fast path claims correct rounding, so anything but the same double is a bug.
        var generator = SeededGenerator(seed: 48)
        for _ in 0..<20_000 {
            let digits = (0..<Int.random(in: 1...19, using: &generator)).map { _ in
                String(Int.random(in: 0...9, using: &generator))
            }
            var text = digits.joined()
            if Bool.random(using: &generator) {
                text.insert(
                    ".", at: text.index(text.startIndex, offsetBy: Int.random(in: 0...text.count, using: &generator)))
            }
            if Int.random(in: 0..<5, using: &generator) == 0 { text = "-" + text }
            if Int.random(in: 0..<10, using: &generator) == 0 {
                text += "e\(Int.random(in: -30...30, using: &generator))"
            }
            let expected = Double(text)
            #expect(Self.parseNumber(text)?.bitPattern == expected?.bitPattern, "\(text)")
        }
    }

    @Test(
        "text that is not a finite decimal is not a number",
        arguments: ["", "-", ".", "1.2.3", "12a", "nan", "inf", "1e999", "0x10", " 1"])
    func notNumbers(_ text: String) {
        #expect(Self.parseNumber(text) == nil)
    }

    @Test("both export date shapes give the instant ISO 8601 gives")
    func timestampsMatchFoundation() {
        let formatter = ISO8601DateFormatter()
        var generator = SeededGenerator(seed: 2019)
        for _ in 0..<2_000 {
            let date = Date(timeIntervalSince1970: Double(Int64.random(in: 0...2_000_000_000, using: &generator)))
            let offset = [-36_000, -18_000, -12_600, 0, 3_600, 7_200, 19_800, 20_700, 45_900].randomElement(
                using: &generator)!
            formatter.timeZone = TimeZone(secondsFromGMT: offset)!
            formatter.formatOptions = [
                .withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime,
            ]
            let local = formatter.string(from: date)  // 2019-01-05 08:12:00
            let sign = offset < 0 ? "-" : "+"
            let zone = String(format: "%@%02d%02d", sign, abs(offset) / 3600, abs(offset) % 3600 / 60)
            let modern = "\(local) \(zone)"
            let legacy = local.filter { $0 != "-" && $0 != ":" && $0 != " " } + zone
            let expected = Int64(date.timeIntervalSince1970)
            #expect(Self.parseTimestamp(modern) == expected, "\(modern)")
            #expect(Self.parseTimestamp(legacy) == expected, "\(legacy)")
        }
    }

    @Test(
        "impossible or misshapen dates are rejected",
        arguments: [
            "2026-02-30 08:00:00 +0100", "2026-13-01 08:00:00 +0100", "2026-01-01 24:00:00 +0100",
            "2026-01-01 08:60:00 +0100", "2026-01-01 08:00:00 0100", "2026-01-01T08:00:00 +0100",
            "2026-01-01 08:00:00 +01:00", "20260101080000Z", "yesterday", "",
        ])
    func notTimestamps(_ text: String) {
        #expect(Self.parseTimestamp(text) == nil)
    }

    @Test(
        "the cached zone clock agrees with Foundation on days and midnights in zones with odd transitions",
        arguments: [
            "Europe/Berlin", "Australia/Lord_Howe", "Europe/Moscow", "America/Santiago", "Asia/Kathmandu",
            "America/St_Johns", "Pacific/Apia", "UTC",
        ])
    func zoneClockMatchesFoundation(_ identifier: String) {
        let zone = TimeZone(identifier: identifier)!
        var clock = ZoneClock(zone: zone)
        var generator = SeededGenerator(seed: UInt64(identifier.utf8.count))
        // Sorted runs (as in an export) interleaved with jumps backwards (a new source's block).
        var instant: Int64 = 631_152_000  // 1990-01-01
        for step in 0..<5_000 {
            if step % 500 == 0 { instant = Int64.random(in: 631_152_000...1_893_456_000, using: &generator) }
            instant += Int64.random(in: 0...200_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(instant))
            let day = Day(containing: date, in: zone)
            #expect(clock.day(containing: instant) == day.ordinal, "\(identifier) \(date)")
            #expect(
                clock.startOfDay(day.ordinal) == Int64(day.start(in: zone).timeIntervalSince1970),
                "\(identifier) \(day)")
        }
    }
}
