import Domain
import Foundation

/// A running mean.
struct Mean {
    private(set) var sum = 0.0
    private(set) var count = 0

    mutating func add(_ value: Double) {
        sum += value
        count += 1
    }

    var value: Double? { count == 0 ? nil : sum / Double(count) }
}

/// What one local day has gathered while the export streams by.
struct DayTotals {
    var hrv = Mean()
    var restingHeartRate = Mean()
    var steps: [StepSample] = []
    var userHRV = Mean()
    var userRestingHeartRate = Mean()
    var userSteps: Double?
}

/// Daily values, ready to store, and what was dropped on the way.
struct DailyValues {
    var health: [HealthMetrics] = []
    var userEntered: [UserEntry] = []
    var timeInBed: [AppleHealthTimeInBed] = []
    var outOfBounds: [Field: Int] = [:]
}

/// Turns records into daily values in the user's time zone, as they stream by.
///
/// Memory grows with the number of days, not records: means are running sums, and what has to wait
/// for the end of the export is bounded per day — the step samples of a day (the sources of one day
/// arrive far apart, because an export is grouped by type and source) and the sleep intervals, a few
/// dozen per night.
///
/// The day of a record: its instant comes from its own offset, then the calendar day containing it
/// in the user's time zone (DESIGN §2). Export offsets are not where the person was (Health formats
/// every date in the exporting phone's zone), so the instant is the only reliable fact; the
/// `HKTimeZone` metadata of sleep records is not used.
struct DailyAggregator {
    private(set) var clock: ZoneClock
    private var days: [Int: DayTotals] = [:]
    private var asleep: [Interval] = []
    private var userAsleep: [Interval] = []
    private var inBed: [Interval] = []

    init(timeZone: TimeZone) {
        clock = ZoneClock(zone: timeZone)
    }

    /// The middle of the record's interval decides its day: a resting heart rate computed over a day
    /// stays on that day even when the user's zone is a few hours off the export's.
    private mutating func day(ofMiddle start: Int64, _ end: Int64) -> Int {
        clock.day(containing: start + (end - start) / 2)
    }

    mutating func addHRV(_ value: Double, start: Int64, end: Int64, userEntered: Bool) {
        add(value, to: userEntered ? \.userHRV : \.hrv, start: start, end: end)
    }

    mutating func addRestingHeartRate(_ value: Double, start: Int64, end: Int64, userEntered: Bool) {
        add(value, to: userEntered ? \.userRestingHeartRate : \.restingHeartRate, start: start, end: end)
    }

    /// A reading the day averages, on the day of its interval's middle.
    private mutating func add(_ value: Double, to mean: WritableKeyPath<DayTotals, Mean>, start: Int64, end: Int64) {
        days[day(ofMiddle: start, end), default: DayTotals()][keyPath: mean].add(value)
    }

    /// Steps spread evenly over `[start, end)`; a record that spans local midnight is split between
    /// the days in proportion to the time on each.
    mutating func addSteps(_ count: Double, start: Int64, end: Int64, source: Int32, userEntered: Bool) {
        let first = clock.day(containing: start)
        let last = end > start ? clock.day(containing: end - 1) : first
        var pieceStart = start
        for day in first...last {
            let pieceEnd = day == last ? end : max(pieceStart, clock.startOfDay(day + 1))
            let share = end > start ? count * Double(pieceEnd - pieceStart) / Double(end - start) : count
            if userEntered {
                days[day, default: DayTotals()].userSteps = (days[day]?.userSteps ?? 0) + share
            } else if pieceEnd > pieceStart || end == start {
                days[day, default: DayTotals()].steps.append(
                    StepSample(start: pieceStart, duration: Int32(pieceEnd - pieceStart), source: source, count: share))
            }
            pieceStart = pieceEnd
        }
    }

    mutating func addSleep(start: Int64, end: Int64, userEntered: Bool) {
        if userEntered {
            userAsleep.append(Interval(start: start, end: end))
        } else {
            asleep.append(Interval(start: start, end: end))
        }
    }

    /// Time in bed from any source, a person's entries included: it is reported, never stored.
    mutating func addInBed(start: Int64, end: Int64) {
        inBed.append(Interval(start: start, end: end))
    }

    /// The daily values, sorted by day. `rank` orders step sources (see `StepCounter`).
    ///
    /// Each value is checked against `Field.bounds` (DESIGN §2); a day's value outside them is
    /// dropped and counted in `outOfBounds`, and the day keeps its other values.
    mutating func finish(user: UserID, rank: (Int32) -> Int) -> DailyValues {
        let sleep = nights(asleep)
        let userSleep = nights(userAsleep)
        var values = DailyValues()
        func accepted(_ field: Field, _ value: Double?) -> Double? {
            guard let value else { return nil }
            do {
                try field.validate(value)
                return value
            } catch {
                values.outOfBounds[field, default: 0] += 1
                return nil
            }
        }
        let ordinals = Set(days.keys).union(sleep.keys).union(userSleep.keys).sorted()
        for ordinal in ordinals {
            let day = Day(ordinal: ordinal)
            let totals = days[ordinal] ?? DayTotals()
            let steps = totals.steps.isEmpty ? nil : StepCounter.total(totals.steps, rank: rank).rounded()
            let health = HealthMetrics(
                user: user, day: day, hrv: accepted(.hrv, totals.hrv.value),
                restingHeartRate: accepted(.restingHeartRate, totals.restingHeartRate.value),
                stepCount: accepted(.stepCount, steps).map { Int($0) },
                sleepDuration: accepted(.sleepDuration, sleep[ordinal]))
            if !health.isEmpty { values.health.append(health) }

            var entry = UserEntry(user: user, day: day)
            var entered = false
            if let hrv = accepted(.hrv, totals.userHRV.value) {
                entry.hrv = .set(hrv)
                entered = true
            }
            if let rate = accepted(.restingHeartRate, totals.userRestingHeartRate.value) {
                entry.restingHeartRate = .set(rate)
                entered = true
            }
            if let steps = accepted(.stepCount, totals.userSteps?.rounded()) {
                entry.stepCount = .set(Int(steps))
                entered = true
            }
            if let seconds = accepted(.sleepDuration, userSleep[ordinal]) {
                entry.sleepDuration = .set(seconds)
                entered = true
            }
            if entered { values.userEntered.append(entry) }
        }
        values.timeInBed = nights(inBed).sorted { $0.key < $1.key }.map {
            AppleHealthTimeInBed(day: Day(ordinal: $0.key), seconds: $0.value)
        }
        return values
    }

    /// Seconds per night: the union of the intervals (so a Watch and an iPhone recording the same
    /// night count it once), each block on the day of its end (`ZoneClock.night(endingAt:)`).
    private mutating func nights(_ intervals: [Interval]) -> [Int: Double] {
        var totals: [Int: Double] = [:]
        for block in Interval.union(intervals) {
            totals[clock.night(endingAt: block.end), default: 0] += Double(block.duration)
        }
        return totals
    }
}
