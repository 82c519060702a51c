import Domain
import Foundation
import TestSupport
import Testing

/// "Hour H, local" (DESIGN §4): the first instant whose wall-clock reading in the user's zone is at or
/// after H:00 that day; a skipped hour gives the instant the clock jumps to, a repeated hour its
/// first occurrence. Reminders and weekly insights are due at these instants.
///
/// Each pinned case failed before the fix, which gave the instants in its comment; the property
/// test, which checks 14,208 hours on the transition days of 144 zones, failed on 970 of them.
@Suite("Hour H, local")
struct LocalTimeTests {
    static func zone(_ name: String) -> TimeZone { TimeZone.iana(name)! }

    @Test(
        "on Los Angeles's spring-forward day the hours after the jump come on time, and 02:00 at the jump",
        arguments: 3...9)
    func losAngelesSpringForward(hour: Int) {
        // 2026-03-08 02:00 PST jumps to 03:00 PDT (10:00Z); from then on local = UTC − 7. The old code
        // gave 03:00–09:00 an hour late (03:00 at 11:00Z = 04:00 PDT).
        let day = Day.literal("2026-03-08")
        let expected = Date(iso: "2026-03-08T10:00:00Z").addingTimeInterval(Double(hour - 3) * 3600)
        #expect(day.localTime(hour: hour, in: Self.zone("America/Los_Angeles")) == expected)
        #expect(day.localTime(hour: 2, in: Self.zone("America/Los_Angeles")) == Date(iso: "2026-03-08T10:00:00Z"))
    }

    @Test(
        "the evening before a southern fall-back is still on summer time",
        arguments: [
            // Sydney leaves UTC+11 at 03:00 on 2026-04-05 (16:00Z on the 4th), Auckland leaves UTC+13
            // at 03:00 (14:00Z). The old code put 20:00 at 21:00 summer time, and Sydney's 23:00 at
            // 00:00 on the 5th, so that day's reminder was never sent.
            ("Australia/Sydney", 20, "2026-04-04T09:00:00Z"),
            ("Australia/Sydney", 23, "2026-04-04T12:00:00Z"),
            ("Pacific/Auckland", 20, "2026-04-04T07:00:00Z"),
        ])
    func southernFallBack(sample: (zone: String, hour: Int, expected: String)) {
        let instant = Day.literal("2026-04-04").localTime(hour: sample.hour, in: Self.zone(sample.zone))
        #expect(instant == Date(iso: sample.expected))
        #expect(Day(containing: instant, in: Self.zone(sample.zone)) == Day.literal("2026-04-04"))
    }

    @Test("a repeated hour is its first occurrence, and the hour before it is on summer time")
    func berlinFallBack() {
        // 2026-10-25 03:00 CEST falls back to 02:00 CET (01:00Z). The old code gave 01:00 at 00:00Z
        // (02:00 CEST) and 02:00 at its second occurrence.
        let berlin = Self.zone("Europe/Berlin")
        let day = Day.literal("2026-10-25")
        #expect(day.localTime(hour: 1, in: berlin) == Date(iso: "2026-10-24T23:00:00Z"))
        #expect(day.localTime(hour: 2, in: berlin) == Date(iso: "2026-10-25T00:00:00Z"))
        #expect(day.localTime(hour: 3, in: berlin) == Date(iso: "2026-10-25T02:00:00Z"))
    }

    @Test("a skipped time gives the instant the clock jumps to, however long the gap")
    func gaps() {
        // Berlin 2026-03-29: 02:00 CET jumps to 03:00 CEST (01:00Z), so 02:00 and 02:30 are both 01:00Z.
        let berlin = Self.zone("Europe/Berlin")
        #expect(Day.literal("2026-03-29").localTime(hour: 2, in: berlin) == Date(iso: "2026-03-29T01:00:00Z"))
        #expect(
            Day.literal("2026-03-29").localTime(hour: 2, minute: 30, in: berlin) == Date(iso: "2026-03-29T01:00:00Z"))
        // Lord Howe jumps half an hour (02:00 → 02:30 on 2026-10-04, 15:30Z on the 3rd); Troll two
        // hours (01:00 → 03:00 on 2026-03-29, 01:00Z).
        #expect(
            Day.literal("2026-10-04").localTime(hour: 2, in: Self.zone("Australia/Lord_Howe"))
                == Date(iso: "2026-10-03T15:30:00Z"))
        #expect(
            Day.literal("2026-03-29").localTime(hour: 2, in: Self.zone("Antarctica/Troll"))
                == Date(iso: "2026-03-29T01:00:00Z"))
    }

    /// The transitions of `zone` in 2026–2027, as Foundation reports them (standard-offset changes
    /// included), with the offsets on either side.
    static func transitions(of zone: TimeZone) -> [(instant: Int64, before: Int64, after: Int64)] {
        var found: [(Int64, Int64, Int64)] = []
        var cursor = Date(iso: "2026-01-01T00:00:00Z").addingTimeInterval(-86_400)
        let end = Date(iso: "2028-01-01T00:00:00Z").addingTimeInterval(86_400)
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next < end {
            let instant = Int64(next.timeIntervalSince1970)
            found.append((instant, offset(zone, instant - 1), offset(zone, instant)))
            cursor = next
        }
        return found
    }

    static func offset(_ zone: TimeZone, _ instant: Int64) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
    }

    /// The reference for hour `hour` of `day`, computed without `Day.localTime`. Where a jump skips
    /// H:00 the answer is the jump itself, taken from the transitions: Calendar's `.nextTime` gives
    /// another instant there (for Lord Howe's half-hour gap, Troll's two-hour gap and Nuuk's jump from
    /// 23:00 to midnight, the next day's H:00). Everywhere else Calendar decides, with the first of a
    /// repeated hour.
    static func expected(
        hour: Int, of day: Day, calendar: Calendar, transitions: [(instant: Int64, before: Int64, after: Int64)]
    ) -> Date? {
        let local = Int64(day.ordinal) * 86_400 + Int64(hour) * 3600
        let gap = transitions.first { transition in
            transition.after > transition.before
                && ((transition.instant + transition.before)..<(transition.instant + transition.after)).contains(local)
        }
        if let gap { return Date(timeIntervalSince1970: Double(gap.instant)) }
        // The calendar's start of the day, found from local noon, which every day has.
        let noon = Int64(day.ordinal) * 86_400 + 12 * 3600
        let noonInstant = Date(timeIntervalSince1970: Double(noon - offset(calendar.timeZone, noon)))
        return calendar.nextDate(
            after: calendar.startOfDay(for: noonInstant).addingTimeInterval(-1),
            matching: DateComponents(hour: hour, minute: 0, second: 0), matchingPolicy: .nextTime,
            repeatedTimePolicy: .first, direction: .forward)
    }

    @Test("every hour of every transition day in 2026–2027, in every zone, agrees with Foundation's calendar")
    func agreesWithCalendar() throws {
        var checked = 0
        for name in TimeZone.knownTimeZoneIdentifiers {
            let zone = try #require(TimeZone.iana(name), "\(name) is a zone Foundation knows")
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let transitions = Self.transitions(of: zone)
            // The local days on both sides of each transition (they differ when it is at midnight).
            var days = Set<Day>()
            for transition in transitions {
                for instant in [transition.instant - 1, transition.instant] {
                    days.insert(Day(containing: Date(timeIntervalSince1970: Double(instant)), in: zone))
                }
            }
            for day in days.sorted() {
                for hour in 0..<24 {
                    let expected = try #require(
                        Self.expected(hour: hour, of: day, calendar: calendar, transitions: transitions),
                        "Calendar has no \(hour):00 on \(day) in \(name)")
                    #expect(day.localTime(hour: hour, in: zone) == expected, "\(name) \(day) \(hour):00")
                    checked += 1
                }
            }
        }
        // A Foundation that reported no transitions would make this test pass vacuously.
        #expect(checked > 10_000)
    }
}
