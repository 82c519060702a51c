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
