import Domain
import Foundation

/// Local days and times in the user's time zone for instants given as seconds since 1970.
///
/// `TimeZone.secondsFromGMT(for:)` is not cheap and the import asks twice per record, so the
/// clock remembers the offset over the span from the last instant it looked up to the zone's next
/// transition (`nextDaylightSavingTimeTransition(after:)`, which also reports changes of standard
/// offset, such as Moscow's in 2011 and 2014). Records come sorted within each type and source,
/// so almost every lookup falls inside the remembered span.
struct ZoneClock {
    let zone: TimeZone
    private var spanStart: Int64 = 1
    private var spanEnd: Int64 = 0
    private var spanOffset: Int64 = 0

    init(zone: TimeZone) {
        self.zone = zone
    }

    /// Seconds to add to UTC to get local time at `instant`.
    mutating func offset(at instant: Int64) -> Int64 {
        if instant >= spanStart, instant < spanEnd { return spanOffset }
        let date = Date(timeIntervalSince1970: Double(instant))
        spanOffset = Int64(zone.secondsFromGMT(for: date))
        spanStart = instant
        if let next = zone.nextDaylightSavingTimeTransition(after: date) {
            spanEnd = max(instant + 1, Int64(next.timeIntervalSince1970.rounded(.down)))
        } else {
            spanEnd = .max
        }
        return spanOffset
    }

    /// The ordinal (`Day.ordinal`) of the local calendar day that contains `instant`.
    mutating func day(containing instant: Int64) -> Int {
        Int(floorDivide(instant + offset(at: instant), 86_400))
    }

    /// The instant of local midnight that starts the day `ordinal`: `Day.start(in:)`'s rule (where a
    /// transition skips midnight, the instant the clock jumps to), with the remembered offsets.
    mutating func startOfDay(_ ordinal: Int) -> Int64 {
        Day.firstInstant(atOrAfterLocal: Int64(ordinal) * 86_400) { offset(at: $0) }
    }

    /// The night a sleep block ending at `instant` belongs to: the local day of the wake-up, where a
    /// day's nights end from 18:00 the evening before up to (not including) 18:00 that day.
    mutating func night(endingAt instant: Int64) -> Int {
        Int(floorDivide(instant + offset(at: instant) + ZoneClock.eveningCutoff, 86_400))
    }

    /// Six hours: shifting local time by this moves 18:00 to the next midnight.
    static let eveningCutoff: Int64 = 6 * 3600

    private func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }
}
