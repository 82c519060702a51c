import Domain
import Foundation
import TestSupport
import Testing

@Suite("Calendar days")
struct DayTests {
    @Test(
        "real dates parse and print back the same",
        arguments: ["1970-01-01", "2000-02-29", "2024-02-29", "2026-12-31", "1969-12-31", "2100-03-01", "0001-01-01"])
    func roundTrip(text: String) throws {
        let day = try #require(Day(text))
        #expect(day.description == text)
    }

    @Test(
        "impossible dates and other shapes are refused",
        arguments: [
            "2026-02-29", "2026-02-30", "2100-02-29", "2026-04-31", "2026-13-01", "2026-00-10", "2026-01-00",
            "2026-1-01", "26-01-01", "2026/01/01", "2026-01-01T00:00", " 2026-01-01", "２０２６-01-01", "",
        ])
    func refused(text: String) {
        #expect(Day(text) == nil)
    }

    @Test("ordinals count days from 1970-01-01 and agree with Foundation's calendar over four centuries")
    func agreesWithCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .utc
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = .utc
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.locale = Locale(identifier: "en_US_POSIX")
        #expect(Day("1970-01-01")?.ordinal == 0)
        for ordinal in stride(from: -80_000, through: 80_000, by: 997) {
            let day = Day(ordinal: ordinal)
            let date = Date(timeIntervalSince1970: Double(ordinal) * 86_400)
            #expect(day.description == formatter.string(from: date))
            // Foundation numbers weekdays 1 = Sunday … 7 = Saturday; Day uses 0 = Monday … 6 = Sunday.
            #expect(day.weekday == (calendar.component(.weekday, from: date) + 5) % 7)
        }
    }

    @Test("a week starts on its Monday, on both sides of 1970-01-01", arguments: [-9, -4, -3, -1, 0, 3, 4, 10, 20_000])
    func weekStart(ordinal: Int) {
        let day = Day(ordinal: ordinal)
        #expect(day.weekStart.weekday == 0)
        #expect((0...6).contains(day.weekStart.distance(to: day)))
    }

    @Test("a Sunday's week started six days before it")
    func sundayWeekStart() {
        #expect(Day("2026-11-29")?.weekStart == Day("2026-11-23"))
        #expect(Day("1970-01-01")?.weekStart == Day("1969-12-29"))
    }

    @Test("the day containing an instant depends on the zone")
    func containing() {
        let instant = Date(iso: "2026-03-15T23:30:00Z")
        #expect(Day(containing: instant, in: .utc) == Day("2026-03-15"))
        #expect(Day(containing: instant, in: TimeZone.iana("Europe/Berlin")!) == Day("2026-03-16"))
        #expect(Day(containing: instant, in: TimeZone.iana("Pacific/Honolulu")!) == Day("2026-03-15"))
    }

    @Test("a local time skipped by a daylight-saving jump is the instant the clock jumps to")
    func gap() {
        let berlin = TimeZone.iana("Europe/Berlin")!
        // 02:30 does not exist on 2026-03-29 in Berlin: the first instant at or after it is the jump
        // to 03:00 CEST = 01:00Z (DESIGN §4; it used to be moved on by the gap, to 01:30Z).
        #expect(Day("2026-03-29")!.localTime(hour: 2, minute: 30, in: berlin) == Date(iso: "2026-03-29T01:00:00Z"))
        #expect(Day("2026-03-29")!.localTime(hour: 20, in: berlin) == Date(iso: "2026-03-29T18:00:00Z"))
        #expect(Day("2026-10-25")!.localTime(hour: 20, in: berlin) == Date(iso: "2026-10-25T19:00:00Z"))
    }
}
