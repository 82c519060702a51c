import Domain
import Foundation

/// SplitMix64 (Steele, Lea & Flood 2014): a small seeded generator, so every synthetic cohort is the
/// same on every run and machine.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A standard normal draw (Box–Muller).
    mutating func gaussian() -> Double {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &self)
        let v = Double.random(in: 0..<1, using: &self)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}

/// A user of the synthetic cohort with the coefficients that generated their severities.
///
/// The generating model, which `pipeline generate` follows too:
/// - Each day's covariates are independent draws around the user's own levels: sleep hours
///   N(μ_sleep, 1) with μ_sleep ~ N(7, 0.5); HRV N(μ_hrv, 10) ms with μ_hrv ~ N(50, 8); steps
///   N(μ_steps, 2500) with μ_steps ~ N(8000, 1500); resting heart rate N(μ_rhr, 3) with μ_rhr ~ N(62, 5);
///   mood and energy uniform on 1…5 and unrelated to severity. Values are clamped to DESIGN §2's bounds.
/// - Next-day severity = intercept + b_sleep·(sleep hours) + b_hrv·(HRV ms) + b_steps·(steps/1000)
///   + b_today·(today's logged severity) + ε, ε ~ N(0, 1), then rounded and clamped to 0…10.
///   b_sleep ~ U(−0.6, −0.2), b_hrv ~ U(−0.04, −0.01), b_steps ~ U(−0.15, −0.03), b_today ~ U(0.3, 0.6);
///   the intercept puts the user's mean severity near 4 (± N(0, 0.5)), so clamping is rare.
/// - The severity a day's covariates act on is that day's true value, logged or not. A whole day is
///   unlogged with probability 3%, and each health metric, mood and energy independently with 5%.
struct SyntheticUser {
    var id: UserID
    var intercept: Double
    var sleep: Double
    var hrv: Double
    var steps: Double
    var today: Double
    var logs: [DailyLog]

    static func cohort(count: Int, days: (Int) -> Int, start: Day, seed: UInt64) -> [SyntheticUser] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { index in
            make(id: UserID("synthetic-\(index)")!, days: days(index), start: start, random: &random)
        }
    }

    static func make(id: UserID, days: Int, start: Day, random: inout SeededGenerator) -> SyntheticUser {
        let sleepLevel = 7 + 0.5 * random.gaussian()
        let hrvLevel = 50 + 8 * random.gaussian()
        let stepsLevel = 8000 + 1500 * random.gaussian()
        let rhrLevel = 62 + 5 * random.gaussian()
        let bSleep = Double.random(in: -0.9 ... -0.4, using: &random)
        let bHRV = Double.random(in: -0.06 ... -0.02, using: &random)
        let bSteps = Double.random(in: -0.25 ... -0.1, using: &random)
        let bToday = Double.random(in: 0.2...0.5, using: &random)
        let intercept =
            4 * (1 - bToday) - bSleep * sleepLevel - bHRV * hrvLevel - bSteps * stepsLevel / 1000
            + 0.5 * random.gaussian()
        var logs: [DailyLog] = []
        var severity = min(max((4 + random.gaussian()).rounded(), 0), 10)
        for offset in 0..<days {
            let sleepHours = min(max(sleepLevel + 1.25 * random.gaussian(), 0), 24)
            let hrv = min(max(hrvLevel + 12 * random.gaussian(), 1), 300)
            let steps = Int(min(max(stepsLevel + 3000 * random.gaussian(), 0), 200_000).rounded())
            let rhr = min(max(rhrLevel + 3 * random.gaussian(), 20), 250)
            let mood = Int.random(in: 1...5, using: &random)
            let energy = Int.random(in: 1...5, using: &random)
            let dayLogged = Double.random(in: 0..<1, using: &random) >= 0.03
            var kept = [Bool]()
            for _ in 0..<6 { kept.append(Double.random(in: 0..<1, using: &random) >= 0.05) }
            if dayLogged {
                logs.append(
                    DailyLog(
                        user: id, day: start.adding(days: offset), symptomSeverity: Int(severity),
                        mood: kept[4] ? mood : nil, energy: kept[5] ? energy : nil,
                        hrv: kept[0] ? Sourced(hrv, .health) : nil,
                        restingHeartRate: kept[1] ? Sourced(rhr, .health) : nil,
                        stepCount: kept[2] ? Sourced(steps, .health) : nil,
                        sleepDuration: kept[3] ? Sourced(sleepHours * 3600, .health) : nil))
            }
            let next =
                intercept + bSleep * sleepHours + bHRV * hrv + bSteps * Double(steps) / 1000 + bToday * severity
                + 0.6 * random.gaussian()
            severity = min(max(next.rounded(), 0), 10)
        }
        return SyntheticUser(
            id: id, intercept: intercept, sleep: bSleep, hrv: bHRV, steps: bSteps, today: bToday, logs: logs)
    }
}
