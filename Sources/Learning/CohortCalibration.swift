public import Domain
import Foundation

extension PopulationModel {
    /// The model with the cohort's settings learned on `users`' folds (`CohortCalibration`), each selected as a
    /// retrain on their `today` would; the sample (`CohortCalibration.sample`) is the caller's to choose. One
    /// thread; `PipelineKit` selects the sample on several.
    public func calibrated(on users: [(user: UserID, design: DesignMatrix, today: Day)]) throws(LearningError)
        -> PopulationModel
    {
        var calibration = CohortCalibration(spec: spec)
        var trainer = ModelTrainer(spec: spec)
        for (user, design, today) in users {
            try calibration.add(user: user, design: design, today: today, population: self, trainer: &trainer)
        }
        return with(calibration.settings())
    }
}

/// Learns `CohortSettings` from a sample of users' rolling-origin folds: the settings one person's few weeks
/// cannot pin down — the smoothing constant, the combination's weights, how firmly a person's weights are held
/// toward them, the errors an interval starts from — are chosen on the whole sample's fold days, where they can.
///
/// Each sampled user's candidates are scored as a retrain would score them (`ModelTrainer.foldForecasts`: the
/// selection up to the combination); the settings are then fitted on their forecasts, pooled:
/// 1. the smoothing constant whose forecasts, served as whole numbers, have the least mean absolute error;
/// 2. the cohort's weights, by least squares on the pooled days (held toward smoothing alone by
///    `cohortPseudoDays`), once for users whose personal model is scored and once without it;
/// 3. the strength of the pull toward them, from the spec's grid, by the error of each user's combination
///    fitted on their own earlier folds and judged on the next (ties go to the stronger pull);
/// 4. the quantiles of those out-of-fold errors, and the interval level at which whole-number intervals held
///    the spec's coverage of the sample's days.
///
/// A sampled user's own days weigh in the weights that judge them, at most one user's share of the sample;
/// `pipeline evaluate` judges the served forecasts on days no retrain saw.
public struct CohortCalibration: Sendable {
    public let spec: ModelSpec
    private var forecasts: [FoldForecasts] = []

    /// Days with which the cohort's least-squares weights are held toward smoothing alone: enough to keep a small
    /// cohort's weights finite, nothing against thousands of days. A strength chosen by cross-validation across
    /// users moved between neighbouring values from one day to the next and carried every user's weights with it.
    static let cohortPseudoDays = 10.0

    public init(spec: ModelSpec = .symptomForecast) {
        self.spec = spec
    }

    /// The users to sample: the `combination.cohortUsers` with the smallest keys hashed from the spec's seed and
    /// their ids, so the sample does not depend on the order users are listed in.
    public static func sample(_ users: [UserID], spec: ModelSpec = .symptomForecast) -> [UserID] {
        let keyed = users.map {
            (
                BottomKSample.key(
                    seed: spec.population.sampleSeed, userHash: FNV1a.hash($0.rawValue), day: Day(ordinal: 0)), $0
            )
        }
        return keyed.sorted { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1.rawValue < $1.1.rawValue) }
            .prefix(spec.combination.cohortUsers).map(\.1)
    }

    /// Selects one sampled user as a retrain would on `today` and keeps their fold forecasts.
    public mutating func add(
        user: UserID, design: DesignMatrix, today: Day, population: PopulationModel, trainer: inout ModelTrainer
    ) throws(LearningError) {
        precondition(population.spec == spec && design.featureNames == spec.featureNames, "another spec")
        let evidence = try trainer.foldForecasts(user: user, design: design, today: today, population: population)
        if evidence.count > 0 { forecasts.append(evidence) }
    }

    /// Adds another calibration's users (from a worker that selected others), after its own.
    public mutating func merge(_ other: CohortCalibration) {
        forecasts += other.forecasts
    }

    /// The settings learned from the users added, or `CohortSettings.initial` when none had a fold day.
    public func settings() -> CohortSettings {
        let spec = self.spec
        var settings = CohortSettings.initial(spec)
        let days = forecasts.reduce(0) { $0 + $1.count }
        guard days > 0 else { return settings }
        let range = spec.target.minimum...spec.target.maximum
        settings.users = forecasts.count
        settings.days = days

        // 1. The smoothing constant.
        let constants = spec.combination.smoothingConstants
        settings.smoothingErrors = constants.indices.map { column in
            forecasts.reduce(0.0) { $0 + Self.absoluteError($1.smoothing[column], $1.targets) } / Double(days)
        }
        let column = settings.smoothingErrors.indices.min {
            settings.smoothingErrors[$0] < settings.smoothingErrors[$1]
        }!
        settings.smoothing = constants[column]

        // 2. The cohort's weights, with and without the personal candidate, in units of each candidate's mean
        // squared difference from smoothing.
        let others = CombinationCandidate.allCases.filter { $0 != .smoothing }
        var squares = [CombinationCandidate: (sum: Double, count: Double)]()
        for user in forecasts {
            for candidate in others {
                guard let values = user.others[candidate] else { continue }
                for i in 0..<user.count {
                    let d = values[i] - user.smoothing[column][i]
                    squares[candidate, default: (0, 0)].sum += d * d
                    squares[candidate, default: (0, 0)].count += 1
                }
            }
        }
        let scale: (CombinationCandidate) -> Double = { candidate in
            guard let (sum, count) = squares[candidate], count > 0, sum > 0 else { return 1 }
            return sum / count
        }
        settings.scales = CombinationCandidate.allCases.map { CombinationWeight(candidate: $0, weight: scale($0)) }
        settings.weightsWithoutPersonal = cohortWeights(forecasts, smoothing: column, withPersonal: false, scale: scale)
        let withPersonal = forecasts.filter(\.hasPersonal)
        settings.weights =
            withPersonal.isEmpty
            ? settings.weightsWithoutPersonal
            : cohortWeights(withPersonal, smoothing: column, withPersonal: true, scale: scale)

        // 3. How firmly: each strength judged on every user's folds after their first.
        let strengths = spec.combination.priorPseudoDays
        var userErrors: [[Double]] = []
        var outOfFold: [[[Double]]] = []
        for strength in strengths {
            var errors: [Double] = []
            var all: [[Double]] = []
            for user in forecasts {
                let candidates = Combination.candidates(user)
                let forecast = Combination.outOfFold(
                    user, smoothing: column, candidates: candidates,
                    prior: candidates.map { settings.weight($0, withPersonal: user.hasPersonal) },
                    scales: candidates.map(scale), pseudoDays: strength, range: range)
                errors.append(Self.absoluteError(forecast, user.targets))
                all.append(forecast)
            }
            userErrors.append(errors)
            outOfFold.append(all)
        }
        settings.priorErrors = userErrors.map { $0.reduce(0, +) / Double(days) }
        let chosen = Self.strongest(userErrors, strengths: strengths, days: forecasts.map(\.count))
        settings.priorPseudoDays = strengths[chosen]

        // 4. The errors and the interval level.
        var errors: [Double] = []
        var forecastsServed: [Double] = []
        var targets: [Double] = []
        for (user, forecast) in zip(forecasts, outOfFold[chosen]) {
            for i in 0..<user.count {
                errors.append(user.targets[i] - forecast[i])
                forecastsServed.append(forecast[i])
                targets.append(user.targets[i])
            }
        }
        settings.errorQuantiles = Combination.quantiles(
            (1...99).map { Double($0) / 100 }, of: errors, pseudo: [], pseudoWeight: 0)
        settings.intervalLevel = Self.intervalLevel(
            forecasts: forecastsServed, targets: targets, quantiles: settings.errorQuantiles,
            coverage: spec.combination.intervalCoverage, range: range)
        return settings
    }

    /// The level (in hundredths) whose whole-number intervals `[round(f + q(level)), round(f + q(1 − level))]`
    /// held a share of the days nearest to `coverage` (the narrower on a tie).
    static func intervalLevel(
        forecasts: [Double], targets: [Double], quantiles: [Double], coverage: Double, range: ClosedRange<Double>
    ) -> Double {
        var best = (distance: Double.infinity, level: (1 - coverage) / 2)
        for percent in 1...49 {
            let distribution = ForecastDistribution(
                lower: quantiles[percent - 1], upper: quantiles[99 - percent - 1], coverage: coverage)
            var held = 0
            for (f, y) in zip(forecasts, targets) where distribution.served(f, within: range).1.contains(y) {
                held += 1
            }
            let distance = abs(Double(held) / Double(forecasts.count) - coverage)
            if distance <= best.distance { best = (distance, Double(percent) / 100) }
        }
        return best.level
    }

    /// The cohort's weights over `users`' fold days: least squares on every user's days, held toward smoothing
    /// alone by `cohortPseudoDays`.
    private func cohortWeights(
        _ users: [FoldForecasts], smoothing column: Int, withPersonal: Bool,
        scale: (CombinationCandidate) -> Double
    ) -> [CombinationWeight] {
        let candidates = CombinationCandidate.allCases.filter { candidate in
            candidate != .smoothing && (withPersonal || candidate != .personal)
                && users.allSatisfy { $0.others[candidate] != nil }
        }
        let total = users.reduce(Combination.Sums(count: candidates.count)) {
            $0 + Combination.Sums($1, smoothing: column, candidates: candidates, rows: 0..<$1.count)
        }
        let fitted = total.solve(
            prior: Array(repeating: 0, count: candidates.count), scales: candidates.map(scale),
            pseudoDays: Self.cohortPseudoDays)
        return Self.weights(candidates: candidates, values: fitted)
    }

    /// The absolute error of `forecasts` served as whole numbers, summed.
    static func absoluteError(_ forecasts: [Double], _ targets: [Double]) -> Double {
        zip(forecasts, targets).reduce(0.0) { $0 + abs($1.0.rounded(.toNearestOrAwayFromZero) - $1.1) }
    }

    /// The index of the strongest pull whose error is within one standard error of the best's: the one-standard-
    /// error rule (Hastie, Tibshirani & Friedman, *The Elements of Statistical Learning*, §7.10), on the paired
    /// differences from the best, users as the units, so a weaker pull must earn its place on evidence that one
    /// user's noise does not give. `errors[s][u]` is user u's summed error under strength s, `days[u]` their days.
    static func strongest(_ errors: [[Double]], strengths: [Double], days: [Int]) -> Int {
        let total = Double(days.reduce(0, +))
        guard total > 0 else { return strengths.indices.max { strengths[$0] < strengths[$1] }! }
        let means = errors.map { $0.reduce(0, +) / total }
        let best = means.indices.min { means[$0] < means[$1] }!
        var chosen = best
        for s in errors.indices where strengths[s] > strengths[chosen] {
            // The ratio estimator's standard error of the mean difference, users as clusters.
            let difference = means[s] - means[best]
            var squares = 0.0
            for u in days.indices {
                let d = errors[s][u] - errors[best][u] - difference * Double(days[u])
                squares += d * d
            }
            let users = Double(days.count)
            let standardError = users > 1 ? (squares * users / (users - 1)).squareRoot() / total : .infinity
            if difference <= standardError { chosen = s }
        }
        return chosen
    }

    private static func weights(candidates: [CombinationCandidate], values: [Double]) -> [CombinationWeight] {
        let others = Dictionary(uniqueKeysWithValues: zip(candidates, values))
        return CombinationCandidate.allCases.map { candidate in
            CombinationWeight(
                candidate: candidate,
                weight: candidate == .smoothing ? 1 - values.reduce(0, +) : others[candidate] ?? 0)
        }
    }
}
