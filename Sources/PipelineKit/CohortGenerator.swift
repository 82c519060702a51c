public import Domain
public import Foundation

/// A synthetic cohort with a known ground truth, as JSON Lines that `pipeline ingest` reads.
///
/// Each user's next-day symptom severity follows a linear model of the day's own values:
///
///     severity[t+1] = round(clamp(intercept + today·severity[t] + sleep·hoursAsleep[t]
///                                 + hrv·hrv[t] + steps·(stepCount[t] / 1000) + noise, 0, 10))
///
/// with per-user coefficients (`GeneratedUser.truth`) and Gaussian noise. The input is realistic
/// in the ways that break pipelines: days with no record, days with only health or only a user
/// entry, days where the user typed a metric that health also synced (the user's value must win),
/// severities and check-ins arriving through the watch queue, and users spread over time zones
/// from UTC−10 to UTC+14. The same seed always gives the same bytes.
public struct CohortGenerator: Sendable {
    public var users: Int
    public var days: Int
    public var seed: UInt64
    /// The instant "now": each user's last generated day is the day before their today.
    public var now: Date

    public init(users: Int, days: Int, seed: UInt64, now: Date) {
        precondition(users > 0 && days > 0, "a cohort needs at least one user and one day")
        self.users = users
        self.days = days
        self.seed = seed
        self.now = now
    }

    /// Zones the cohort is spread over, including both ends of the offset range and DST zones.
    public static let timeZones = [
        "UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo", "Pacific/Kiritimati", "Pacific/Honolulu",
        "Australia/Sydney", "America/Sao_Paulo",
    ]

    /// Standard deviation of the severity noise, in severity points.
    public static let noiseDeviation = 0.8

    /// Writes the cohort, user by user, calling `emit` with chunks of complete lines.
    public func generate(_ emit: (String) -> Void) {
        for index in 0..<users {
            var chunk = ""
            chunk.reserveCapacity(days * 220)
            writeUser(index, into: &chunk)
            emit(chunk)
        }
    }

    /// The generating coefficients of every user, without the daily data.
    public func truths() -> [GeneratedUser] {
        (0..<users).map { user(at: $0).profile }
    }

    private struct UserState {
        var profile: GeneratedUser
        var random: SeededRandom
        var meanSleepHours: Double
        var meanHRV: Double
        var meanSteps: Double
        var meanRestingHeartRate: Double
        var meanSeverity: Double
    }

    /// Each user draws from their own stream, so a user's data does not depend on how many users
    /// come before them.
    private func user(at index: Int) -> UserState {
        var random = SeededRandom(seed: seed &* 0x9E37_79B9 &+ UInt64(index) &* 0x85EB_CA6B &+ 1)
        let id = UserID(String(format: "user-%05d", index + 1))!
        let zone = CohortGenerator.timeZones[index % CohortGenerator.timeZones.count]
        let meanSleepHours = random.uniform(6.2...7.8)
        let meanHRV = random.uniform(30...80)
        let meanSteps = random.uniform(4_000...12_000)
        let meanRestingHeartRate = random.uniform(52...72)
        let today = random.uniform(0.3...0.6)
        let sleep = random.uniform(-0.6 ... -0.2)
        let hrv = random.uniform(-0.04 ... -0.01)
        let steps = random.uniform(-0.15 ... -0.05)
        // Choose the intercept so the user's long-run mean severity sits mid-scale, away from the
        // clamps at 0 and 10 that would bend the linear relation.
        let targetMean = random.uniform(3.5...6)
        let intercept =
            targetMean * (1 - today) - sleep * meanSleepHours - hrv * meanHRV - steps * meanSteps / 1000
        let profile = GeneratedUser(
            id: id, timeZone: zone,
            truth: GeneratedUser.Truth(
                intercept: intercept, todaySeverity: today, sleepHours: sleep, hrv: hrv, thousandSteps: steps))
        return UserState(
            profile: profile, random: random, meanSleepHours: meanSleepHours, meanHRV: meanHRV,
            meanSteps: meanSteps, meanRestingHeartRate: meanRestingHeartRate, meanSeverity: targetMean)
    }

    private func writeUser(_ index: Int, into out: inout String) {
        var state = user(at: index)
        let id = state.profile.id.rawValue
        let zone = TimeZone.iana(state.profile.timeZone)!
        out += #"{"type":"user","user":"\#(id)","timeZone":"\#(state.profile.timeZone)"}"# + "\n"
        if index % 5 == 3 {
            out += #"{"type":"settings","user":"\#(id)","engagementNotifications":false}"# + "\n"
        } else if index % 7 == 2 {
            out += #"{"type":"settings","user":"\#(id)","reminderHour":\#(8 + index % 12)}"# + "\n"
        }
        let lastDay = Day(containing: now, in: zone).adding(days: -1)
        let firstDay = lastDay.adding(days: -(days - 1))
        let truth = state.profile.truth
        var severity = state.meanSeverity.rounded()
        for offset in 0..<days {
            let day = firstDay.adding(days: offset)
            var random = state.random
            let sleepHours = random.normal(mean: state.meanSleepHours, deviation: 0.9).clamped(to: 3...11)
            let hrv = random.normal(mean: state.meanHRV, deviation: 10).clamped(to: 5...200)
            let steps = random.normal(mean: state.meanSteps, deviation: 2_500).clamped(to: 0...40_000).rounded()
            let restingHeartRate = random.normal(mean: state.meanRestingHeartRate, deviation: 3).clamped(to: 35...110)
            let mood = Int((3 + random.normal(deviation: 0.9) - 0.25 * (severity - 5)).rounded()).clamped(to: 1...5)
            let energy = Int((3 + random.normal(deviation: 0.9) + 0.3 * (sleepHours - 7)).rounded()).clamped(to: 1...5)
            let noise = random.normal(deviation: CohortGenerator.noiseDeviation)
            let roll = random.unit()
            let sleepTypedRoll = random.unit()
            let typedSleepShift = random.normal(deviation: 0.3)
            let watchRoll = random.unit()
            state.random = random

            let todaySeverity = Int(severity)
            let sleepSeconds = (sleepHours * 3600).rounded()
            let dayText = day.description
            // 4% of days have nothing at all; 4% only health; 4% only the user's entry.
            let hasHealth = roll >= 0.04 && !(roll >= 0.08 && roll < 0.12)
            let hasUser = roll >= 0.08
            if hasUser {
                let viaWatch = watchRoll < 0.05
                let checkInViaWatch = watchRoll >= 0.05 && watchRoll < 0.10
                var fields = ""
                if !viaWatch { fields += #","symptomSeverity":\#(todaySeverity)"# }
                if !checkInViaWatch { fields += #","mood":\#(mood),"energy":\#(energy)"# }
                if sleepTypedRoll < 0.05 {
                    // The user typed their sleep; health also syncs a value below, which must lose.
                    fields += #","sleepDuration":\#(Int(sleepSeconds))"#
                }
                if !fields.isEmpty {
                    out += #"{"type":"entry","user":"\#(id)","day":"\#(dayText)"\#(fields)}"# + "\n"
                }
                if viaWatch {
                    out +=
                        #"{"type":"watch","user":"\#(id)","kind":"symptomLog","payload":{"day":"\#(dayText)","symptomSeverity":\#(todaySeverity)}}"#
                        + "\n"
                }
                if checkInViaWatch {
                    out +=
                        #"{"type":"watch","user":"\#(id)","kind":"healthCheckIn","payload":{"day":"\#(dayText)","mood":\#(mood),"energy":\#(energy)}}"#
                        + "\n"
                }
            }
            if hasHealth {
                let syncedSleep =
                    sleepTypedRoll < 0.05 ? sleepSeconds + (typedSleepShift * 3600).rounded() : sleepSeconds
                out +=
                    #"{"type":"health","user":"\#(id)","day":"\#(dayText)","hrv":\#(CohortGenerator.tenths(hrv)),"restingHeartRate":\#(CohortGenerator.tenths(restingHeartRate)),"stepCount":\#(Int(steps)),"sleepDuration":\#(Int(syncedSleep.clamped(to: 0...86_400)))}"#
                    + "\n"
            }
            let next =
                truth.intercept + truth.todaySeverity * severity + truth.sleepHours * sleepHours + truth.hrv * hrv
                + truth.thousandSteps * steps / 1000 + noise
            severity = next.rounded().clamped(to: 0...10)
        }
    }

    /// A value with one decimal, formatted without locale or binary-float surprises.
    static func tenths(_ value: Double) -> String {
        let scaled = Int((value * 10).rounded())
        return "\(scaled / 10).\(abs(scaled % 10))"
    }
}

/// A generated user and the coefficients their severity was generated with.
public struct GeneratedUser: Sendable, Hashable {
    public var id: UserID
    public var timeZone: String
    public var truth: Truth

    /// Next-day severity per unit of each of the day's values.
    public struct Truth: Sendable, Hashable {
        public var intercept: Double
        /// Per severity point today.
        public var todaySeverity: Double
        /// Per hour asleep.
        public var sleepHours: Double
        /// Per millisecond of HRV (SDNN).
        public var hrv: Double
        /// Per thousand steps.
        public var thousandSteps: Double
    }

    /// One JSON object, for `pipeline generate --truth`.
    public var jsonText: String {
        var object = JSONObject()
        object["user"] = .string(id.rawValue)
        object["timeZone"] = .string(timeZone)
        object["intercept"] = .number(truth.intercept)
        object["todaySeverity"] = .number(truth.todaySeverity)
        object["sleepHours"] = .number(truth.sleepHours)
        object["hrv"] = .number(truth.hrv)
        object["thousandSteps"] = .number(truth.thousandSteps)
        object["noiseDeviation"] = .number(CohortGenerator.noiseDeviation)
        return object.jsonText
    }
}

extension Comparable {
    func clamped(to range: ClosedRange<Self>) -> Self {
        min(max(self, range.lowerBound), range.upperBound)
    }
}
