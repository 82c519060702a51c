import Domain
import Foundation
import TestSupport
import Testing

@testable import Learning

/// Issue 36: exponentially weighted severities as features, the cohort's settings and the combination served.
@Suite("Combinations of forecasts")
struct CombinationTests {
    static let start = Day("2025-01-01")!
    static let user = UserID.literal("ewm")
    static let spec = ModelSpec.symptomForecast

    /// The definition, written out: each logged severity weighted (1 − α)^k, k the number of severities logged
    /// after it up to the feature day, divided by the sum of the weights.
    static func exponentialMean(_ values: [Double?], through t: Int, alpha: Double) -> Double {
        var weighted = 0.0
        var weights = 0.0
        var k = 0.0
        for index in stride(from: t, through: 0, by: -1) {
            guard let value = values[index] else { continue }
            let weight = pow(1 - alpha, k)
            weighted += weight * value
            weights += weight
            k += 1
        }
        return weights > 0 ? weighted / weights : .nan
    }

    @Test("each exponential mean is the weighted mean of the severities logged through the day before, gaps skipped")
    func exponentialMeans() throws {
        var random = SeededGenerator(seed: 61)
        let logs = SyntheticUser.make(id: Self.user, days: 120, start: Self.start, random: &random).logs
        let severities: [Double?] = (0..<120).map { offset in
            logs.first { $0.day == Self.start.adding(days: offset) }?.symptomSeverity.map(Double.init)
        }
        #expect(severities.contains { $0 == nil }, "the cohort leaves days unlogged")
        let builder = FeatureBuilder(spec: Self.spec)
        let design = builder.designMatrix(logs: logs, today: Self.start.adding(days: 120))
        for alpha in [0.05, 0.15, 0.3, 0.5] {
            let column = try #require(Self.spec.featureNames.firstIndex(of: "severity_ewm" + ModelSpec.percent(alpha)))
            for i in 0..<design.rowCount {
                // The row predicting day D describes D − 1; its hidden copy does not see D − 1's severity.
                let t = Self.start.distance(to: design.days[i]) - 1
                var seen = severities
                if design.isHidden(i) { seen[t] = nil }
                let expected = Self.exponentialMean(seen, through: t, alpha: alpha)
                let value = design.value(row: i, column: column)
                #expect(
                    expected.isNaN ? value.isNaN : abs(value - expected) <= 1e-12 * max(1, abs(expected)),
                    "row \(i), alpha \(alpha)")
            }
            // A forecast reads the same definition: the row for the day after the last.
            let row = builder.predictionRow(logs: logs, for: Self.start.adding(days: 120))
            let expected = Self.exponentialMean(severities, through: 119, alpha: alpha)
            #expect(abs(row[column] - expected) <= 1e-12 * max(1, abs(expected)))
        }
    }

    /// Two cohorts: one whose severity follows the day's inputs (the synthetic cohort's linear model), one whose
    /// severity is each person's level plus noise, the inputs unrelated to it. The cohort learns to weigh the
    /// fitted models in the first and the person's long-run level in the second.
    @Test("the cohort weighs the fitted models where the inputs drive severity, the person's level where they do not")
    func cohortWeights() throws {
        let informative = SyntheticUser.cohort(count: 24, days: { _ in 220 }, start: Self.start, seed: 67)
        var random = SeededGenerator(seed: 71)
        let noise = informative.map { user -> (UserID, [DailyLog]) in
            let level = Double(Int.random(in: 2...7, using: &random))
            let logs = user.logs.map { log -> DailyLog in
                var copy = log
                if copy.symptomSeverity != nil {
                    copy.symptomSeverity = Int(min(10, max(0, (level + 1.2 * random.gaussian()).rounded())))
                }
                return copy
            }
            return (user.id, logs)
        }
        let today = Self.start.adding(days: 220)
        for (cohort, informativeInputs) in [(informative.map { ($0.id, $0.logs) }, true), (noise, false)] {
            var accumulator = PopulationAccumulator(today: today)
            for (id, logs) in cohort { accumulator.add(user: id, logs: logs) }
            let builder = FeatureBuilder(spec: Self.spec)
            let population = try accumulator.model(trainedAt: Date(iso: "2026-03-01T03:00:00Z")).calibrated(
                on: cohort.map { ($0.0, builder.designMatrix(logs: $0.1, today: today), today) })
            let settings = try #require(population.cohort)
            #expect(settings.users == cohort.count && settings.days > 20 * cohort.count)
            let fitted =
                settings.weight(.personal, withPersonal: true) + settings.weight(.population, withPersonal: true)
            let leading = settings.weights.max { $0.weight < $1.weight }!.candidate
            if informativeInputs {
                #expect(fitted >= 0.6 && [.personal, .population].contains(leading), "\(settings.weights)")
            } else {
                // A person's level is all there is to forecast: their long-run mean leads, and the fitted models,
                // which learn little more than that level, weigh less than half.
                #expect(fitted < 0.5 && leading == .longMean, "\(settings.weights)")
            }
            #expect(abs(settings.weights.reduce(0) { $0 + $1.weight } - 1) < 1e-9)
            #expect(settings.errorQuantiles.count == 99 && settings.errorQuantiles == settings.errorQuantiles.sorted())
            #expect((0.01...0.49).contains(settings.intervalLevel))
        }
    }

    @Test("a weaker pull is chosen only when its error is lower by more than one standard error")
    func oneStandardError() {
        let strengths = [100.0, 300, 1000]
        let days = Array(repeating: 20, count: 10)
        // Users' summed errors: the weakest pull better by 0.5 on every user (consistently: no spread).
        let consistent = [
            Array(repeating: 10.0, count: 10), Array(repeating: 10.3, count: 10), Array(repeating: 10.5, count: 10),
        ]
        #expect(CohortCalibration.strongest(consistent, strengths: strengths, days: days) == 0)
        // A smaller advantage that users do not agree on (better for four, worse for six): within one standard
        // error, so the strongest pull holds.
        let mixed = (0..<10).map { $0 < 6 ? 11.0 : 9.0 }
        let noisy = [Array(repeating: 10.0, count: 10), mixed, mixed]
        #expect(CohortCalibration.strongest(noisy, strengths: strengths, days: days) == 2)
    }

    @Test("a forecast is a whole number within its interval, within the scale")
    func wholeNumbers() {
        let distribution = ForecastDistribution(lower: -1.3, upper: 2.6, coverage: 0.8)
        let (median, interval) = distribution.served(4.49, within: 0...10)
        #expect(median == 4 && interval == 3...7)
        let (top, high) = distribution.served(9.7, within: 0...10)
        #expect(top == 10 && high == 8...10)
        // An interval narrower than a whole point still holds the median.
        let narrow = ForecastDistribution(lower: 0.2, upper: 0.4, coverage: 0.8)
        #expect(narrow.served(4.49, within: 0...10).1 == 4...5)
    }
}

/// A lasting change of a person's level restarts the exponential means (`ModelSpec.LevelShift`).
@Suite("Level shifts")
struct LevelShiftTests {
    static let start = Day("2025-01-01")!
    static let user = UserID.literal("shift")

    static func logs(_ severities: [Int?]) -> [DailyLog] {
        severities.enumerated().compactMap { offset, severity in
            severity.map { DailyLog(user: user, day: start.adding(days: offset), symptomSeverity: $0) }
        }
    }

    static func means(_ logs: [DailyLog], spec: ModelSpec, through last: Int) -> [Double: Double] {
        let row = FeatureBuilder(spec: spec).predictionRow(logs: logs, for: start.adding(days: last + 1))
        return Dictionary(
            uniqueKeysWithValues: spec.inputs[0].exponentialMeans.map { alpha in
                (alpha, row[spec.featureNames.firstIndex(of: "severity_ewm" + ModelSpec.percent(alpha))!])
            })
    }

    @Test("after a lasting move from 10 to 5, every exponential mean reads only the days since the move")
    func restartsAfterAMove() {
        let spec = ModelSpec.symptomForecast
        #expect(spec.inputs[0].levelShift != nil)
        var without = spec
        without.inputs[0].levelShift = nil
        // Sixty days at 10 with a few single lower days, then twenty at 5 with one day unlogged.
        var severities: [Int?] = (0..<60).map { $0 % 17 == 0 ? 8 : 10 }
        severities += (0..<20).map { $0 == 11 ? nil : 5 }
        let logs = Self.logs(severities)
        let restarted = Self.means(logs, spec: spec, through: 79)
        let plain = Self.means(logs, spec: without, through: 79)
        for alpha in spec.inputs[0].exponentialMeans {
            #expect(abs(restarted[alpha]! - 5) <= 1e-12, "α \(alpha) reads only the days at 5")
            #expect(plain[alpha]! > 5, "without the level shift, α \(alpha) still reads the days at 10")
            #expect(
                abs(
                    plain[alpha]!
                        - CombinationTests.exponentialMean(
                            severities.map { $0.map(Double.init) }, through: 79, alpha: alpha))
                    <= 1e-12)
        }
    }

    @Test("noise around a steady level, and single unusual days, never restart the means")
    func steadyLevelsDoNotRestart() {
        let spec = ModelSpec.symptomForecast
        var without = spec
        without.inputs[0].levelShift = nil
        var random = SeededGenerator(seed: 83)
        let severities: [Int?] = (0..<200).map { day in
            day % 23 == 0 ? 10 : Int(min(10, max(0, (4 + 1.5 * random.gaussian()).rounded())))
        }
        let logs = Self.logs(severities)
        let builder = FeatureBuilder(spec: spec)
        let plainBuilder = FeatureBuilder(spec: without)
        let design = builder.designMatrix(logs: logs, today: Self.start.adding(days: 200))
        let plainDesign = plainBuilder.designMatrix(logs: logs, today: Self.start.adding(days: 200))
        #expect(design.rowCount == plainDesign.rowCount)
        for i in 0..<design.rowCount {
            for (j, name) in spec.featureNames.enumerated() where name.hasPrefix("severity_ewm") {
                let (value, plain) = (design.value(row: i, column: j), plainDesign.value(row: i, column: j))
                #expect(value == plain || (value.isNaN && plain.isNaN), "row \(i) \(name)")
            }
        }
    }
}

extension LevelShiftTests {
    /// The definition, written out: the means of the runs before and after each split, their pooled deviation,
    /// the split that differs by the most standard errors, and the exponential mean from there.
    static func restartedMean(_ values: [Double?], through t: Int, alpha: Double, _ shift: ModelSpec.LevelShift)
        -> Double
    {
        let logged = (0...t).filter { values[$0] != nil }
        let y = logged.map { values[$0]! }
        let n = y.count
        var best = (score: 0.0, split: 0)
        var k = n - shift.minimumDays
        while k >= max(shift.minimumDays, n - shift.searchDays) {
            let early = Array(y[..<k])
            let late = Array(y[k...])
            let earlyMean = early.reduce(0, +) / Double(early.count)
            let lateMean = late.reduce(0, +) / Double(late.count)
            let spread =
                early.map { ($0 - earlyMean) * ($0 - earlyMean) }.reduce(0, +)
                + late.map { ($0 - lateMean) * ($0 - lateMean) }.reduce(0, +)
            let deviation = max((spread / Double(n - 2)).squareRoot(), shift.minimumDeviation)
            let score =
                abs(earlyMean - lateMean)
                / (deviation * (1 / Double(early.count) + 1 / Double(late.count)).squareRoot())
            if score > best.score { best = (score, k) }
            k -= 1
        }
        let start = best.score > shift.threshold ? logged[best.split] : 0
        var since = values
        for index in 0..<start { since[index] = nil }
        return CombinationTests.exponentialMean(since, through: t, alpha: alpha)
    }

    @Test("every row's exponential means follow the written-out definition, through moves up and down and gaps")
    func followsTheDefinition() throws {
        let spec = ModelSpec.symptomForecast
        let shift = try #require(spec.inputs[0].levelShift)
        var random = SeededGenerator(seed: 89)
        var level = 3.0
        let severities: [Double?] = (0..<240).map { day in
            if day % 60 == 30 { level = level < 5 ? 8 : 2 }
            return day % 9 == 4 ? nil : min(10, max(0, (level + 0.8 * random.gaussian()).rounded()))
        }
        let logs = severities.enumerated().compactMap { offset, severity in
            severity.map { DailyLog(user: Self.user, day: Self.start.adding(days: offset), symptomSeverity: Int($0)) }
        }
        let design = FeatureBuilder(spec: spec).designMatrix(logs: logs, today: Self.start.adding(days: 240))
        var restarted = 0
        for alpha in spec.inputs[0].exponentialMeans {
            let column = try #require(spec.featureNames.firstIndex(of: "severity_ewm" + ModelSpec.percent(alpha)))
            for i in 0..<design.rowCount {
                let t = Self.start.distance(to: design.days[i]) - 1
                var seen = severities
                if design.isHidden(i) { seen[t] = nil }
                let expected = Self.restartedMean(seen, through: t, alpha: alpha, shift)
                let value = design.value(row: i, column: column)
                #expect(
                    expected.isNaN ? value.isNaN : abs(value - expected) <= 1e-9 * max(1, abs(expected)),
                    "row \(i), α \(alpha)")
                if abs(expected - CombinationTests.exponentialMean(seen, through: t, alpha: alpha)) > 1e-9 {
                    restarted += 1
                }
            }
        }
        #expect(restarted > 100, "the moves restart the means on many rows")
    }
}
