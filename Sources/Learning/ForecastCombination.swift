internal import Domain

/// A kind of forecast a combined model weighs, in the order weights are listed: the person's own past, at
/// two speeds, and the two fitted models. "Tomorrow = today" and the 7-day mean are scored beside them but not
/// weighed: they are smoothings of the same past, noisier than the cohort's, and on the first PMData months
/// weighing them raised the walk forward's error by 1–2% where it left generated cohorts' unchanged.
public enum CombinationCandidate: String, Sendable, Hashable, CaseIterable, Codable {
    /// Exponential smoothing of the person's severities with the cohort's constant: the anchor, whose weight is
    /// one minus the others'.
    case smoothing
    /// The slow exponential mean (`combination.longMean`): the person's long-run level.
    case longMean
    case population
    case personal
}

/// One candidate's weight in a combined forecast.
public struct CombinationWeight: Sendable, Hashable, Codable {
    public var candidate: CombinationCandidate
    public var weight: Double

    public init(candidate: CombinationCandidate, weight: Double) {
        self.candidate = candidate
        self.weight = weight
    }
}

/// The forecast distribution a model serves around its linear forecast f (within the target's range): the
/// severity is `f + e`, e an error drawn as the model's past out-of-fold errors were, centred on f.
///
/// Served as whole numbers, as the score is: the median `round(f)` — the point forecast with the least expected
/// absolute error, and for a whole-number score a whole number — and the interval `[round(f + lower), round(f +
/// upper)]`, widened to hold the median. The median is not moved by the errors' own past median: a person's
/// errors lean one way after a change in their level, which a forecast from their latest days has already
/// followed (on the first PMData months, moving it that way raised the error of the walk forward by 3%).
public struct ForecastDistribution: Sendable, Hashable, Codable {
    /// The interval's offsets from f: quantiles of the errors.
    public var lower: Double
    public var upper: Double
    /// The share of days the interval should hold, as the spec asks (0.8).
    public var coverage: Double

    public init(lower: Double, upper: Double, coverage: Double) {
        self.lower = lower
        self.upper = upper
        self.coverage = coverage
    }

    /// The whole-number median and interval for the linear forecast `forecast`.
    func served(_ forecast: Double, within range: ClosedRange<Double>) -> (Double, ClosedRange<Double>) {
        func whole(_ value: Double) -> Double {
            min(max(value.rounded(.toNearestOrAwayFromZero), range.lowerBound), range.upperBound)
        }
        let median = whole(forecast)
        return (median, min(whole(forecast + lower), median)...max(whole(forecast + upper), median))
    }
}

/// What the cohort learned for every user's combination (`CohortCalibration`), kept in the population model's
/// artifact: the smoothing constant, the weights a person's are held toward, how firmly, and the errors the
/// interval starts from.
public struct CohortSettings: Sendable, Hashable, Codable {
    /// The smoothing constant of the `smoothing` candidate.
    public var smoothing: Double
    /// Days of a person's own fold evidence the cohort's weights count as.
    public var priorPseudoDays: Double
    /// The cohort's weights for users whose personal model is scored, and for the others (no `personal`).
    public var weights: [CombinationWeight]
    public var weightsWithoutPersonal: [CombinationWeight]
    /// Each candidate's mean squared difference from the smoothing forecast over the sample's fold days: the
    /// unit in which a weight's distance from the cohort's is penalized.
    public var scales: [CombinationWeight]
    /// The quantiles at 1%, 2%, …, 99% of the sample's out-of-fold errors of the combination.
    public var errorQuantiles: [Double]
    /// The interval is the errors' quantiles at `intervalLevel` and `1 − intervalLevel`: the level at which it
    /// held `coverage` of the sample's fold days (whole numbers make it differ from (1 − coverage) / 2).
    public var intervalLevel: Double
    /// Users and fold days of the sample.
    public var users: Int
    public var days: Int
    /// The sample's pooled out-of-fold mean absolute error of each smoothing constant and each prior strength
    /// tried, in spec order: the evidence behind `smoothing` and `priorPseudoDays`.
    public var smoothingErrors: [Double]
    public var priorErrors: [Double]

    /// How firmly a user's weights are held toward smoothing alone before any cohort evidence: little, so that
    /// the user's own folds decide.
    static let initialPseudoDays = 10.0

    /// The settings before any cohort evidence: the spec's default smoothing alone, held by `initialPseudoDays`.
    public static func initial(_ spec: ModelSpec) -> CohortSettings {
        let weights = CombinationCandidate.allCases.map {
            CombinationWeight(candidate: $0, weight: $0 == .smoothing ? 1 : 0)
        }
        return CohortSettings(
            smoothing: spec.combination.defaultSmoothing, priorPseudoDays: initialPseudoDays,
            weights: weights, weightsWithoutPersonal: weights,
            scales: CombinationCandidate.allCases.map { CombinationWeight(candidate: $0, weight: 1) },
            errorQuantiles: [], intervalLevel: (1 - spec.combination.intervalCoverage) / 2, users: 0, days: 0,
            smoothingErrors: [], priorErrors: [])
    }

    /// The cohort's weight of `candidate` for a user whose personal model is scored (`withPersonal`) or not.
    public func weight(_ candidate: CombinationCandidate, withPersonal: Bool) -> Double {
        (withPersonal ? weights : weightsWithoutPersonal).first { $0.candidate == candidate }?.weight ?? 0
    }

    func scale(_ candidate: CombinationCandidate) -> Double {
        scales.first { $0.candidate == candidate }?.weight ?? 1
    }
}

/// Every candidate's forecast on a user's scored fold days, as the rolling-origin selection made them: what a
/// combination is fitted and judged on.
struct FoldForecasts: Sendable, Hashable {
    /// The scored rows: target, fold (0, 1, … in order), and each candidate's linear forecast within the
    /// target's range (`smoothing` holds one column per smoothing constant, in spec order).
    var targets: [Double] = []
    var folds: [Int] = []
    var smoothing: [[Double]] = []
    var others: [CombinationCandidate: [Double]] = [:]
    /// Whether the personal candidate was scored (then on every row).
    var hasPersonal: Bool { others[.personal] != nil }
    var count: Int { targets.count }
}

/// Fitting combinations: the weights of the candidates other than smoothing, on their differences from it
/// (so the weights sum to one and a combination is never biased where its candidates are not), by least
/// squares held toward prior weights.
enum Combination {
    /// The candidates other than smoothing that `forecasts` has, in order.
    static func candidates(_ forecasts: FoldForecasts) -> [CombinationCandidate] {
        CombinationCandidate.allCases.filter { $0 != .smoothing && forecasts.others[$0] != nil }
    }

    /// The sums a least-squares fit of the weights needs: `DᵀD` and `Dᵀe` over rows, D the candidates'
    /// differences from smoothing and e the target's.
    struct Sums: Sendable {
        var system: Matrix
        var right: [Double]

        init(count: Int) {
            system = Matrix(rows: count, columns: count)
            right = Array(repeating: 0, count: count)
        }

        init(
            _ forecasts: FoldForecasts, smoothing column: Int, candidates: [CombinationCandidate],
            rows: some Sequence<Int>
        ) {
            let k = candidates.count
            self.init(count: k)
            var difference = [Double](repeating: 0, count: k)
            let smoothing = forecasts.smoothing[column]
            let columns = candidates.map { forecasts.others[$0]! }
            for i in rows {
                let s = smoothing[i]
                for a in 0..<k { difference[a] = columns[a][i] - s }
                let e = forecasts.targets[i] - s
                for a in 0..<k {
                    right[a] += difference[a] * e
                    for b in 0..<k { system[a, b] += difference[a] * difference[b] }
                }
            }
        }

        static func + (lhs: Sums, rhs: Sums) -> Sums {
            var sum = lhs
            for index in sum.system.storage.indices { sum.system.storage[index] += rhs.system.storage[index] }
            for index in sum.right.indices { sum.right[index] += rhs.right[index] }
            return sum
        }

        /// The weights minimizing the squared error plus `pseudoDays · Σ scale_k (v_k − prior_k)²`; `prior` when
        /// the system cannot be solved.
        func solve(prior: [Double], scales: [Double], pseudoDays: Double) -> [Double] {
            let k = right.count
            guard k > 0 else { return [] }
            var system = self.system
            var right = self.right
            for a in 0..<k {
                let penalty = pseudoDays * max(scales[a], 1e-12)
                system[a, a] += penalty
                right[a] += penalty * prior[a]
            }
            // Positive definite: the penalty alone makes it so.
            guard (try? LinearAlgebra.solvePositiveDefinite(&system, &right)) != nil, right.allSatisfy(\.isFinite)
            else {
                return prior
            }
            return right
        }
    }

    /// The weights (of `candidates`, smoothing's left out) minimizing Σ (y − S − Σ v_k (F_k − S))² over `rows`
    /// plus `pseudoDays · Σ scale_k (v_k − prior_k)²`.
    static func fit(
        _ forecasts: FoldForecasts, smoothing column: Int, candidates: [CombinationCandidate], rows: [Int],
        prior: [Double], scales: [Double], pseudoDays: Double
    ) -> [Double] {
        Sums(forecasts, smoothing: column, candidates: candidates, rows: rows)
            .solve(prior: prior, scales: scales, pseudoDays: pseudoDays)
    }

    /// The combined linear forecast of row `i`, within `range`.
    static func forecast(
        _ forecasts: FoldForecasts, row i: Int, smoothing column: Int, candidates: [CombinationCandidate],
        weights: [Double], range: ClosedRange<Double>
    ) -> Double {
        let s = forecasts.smoothing[column][i]
        var value = s
        for (a, candidate) in candidates.enumerated() { value += weights[a] * (forecasts.others[candidate]![i] - s) }
        return min(max(value, range.lowerBound), range.upperBound)
    }

    /// Each row's combined forecast with weights fitted only on the user's earlier folds (the prior alone for
    /// the first): the combination judged as the folds judge every candidate.
    static func outOfFold(
        _ forecasts: FoldForecasts, smoothing column: Int, candidates: [CombinationCandidate], prior: [Double],
        scales: [Double], pseudoDays: Double, range: ClosedRange<Double>
    ) -> [Double] {
        var result = [Double](repeating: 0, count: forecasts.count)
        var start = 0
        while start < forecasts.count {
            var end = start
            while end < forecasts.count && forecasts.folds[end] == forecasts.folds[start] { end += 1 }
            let weights =
                start == 0
                ? prior
                : fit(
                    forecasts, smoothing: column, candidates: candidates, rows: Array(0..<start), prior: prior,
                    scales: scales, pseudoDays: pseudoDays)
            for i in start..<end {
                result[i] = forecast(
                    forecasts, row: i, smoothing: column, candidates: candidates, weights: weights, range: range)
            }
            start = end
        }
        return result
    }

    /// The quantile at `level` of `values` (weight 1 each) together with `pseudo` (weight `pseudoWeight` each):
    /// the smallest value whose cumulative weight reaches `level` of the total.
    static func quantile(_ level: Double, of values: [Double], pseudo: [Double], pseudoWeight: Double) -> Double {
        quantiles([level], of: values, pseudo: pseudo, pseudoWeight: pseudoWeight)[0]
    }

    /// `quantile` at each of `levels`, the points sorted once.
    static func quantiles(_ levels: [Double], of values: [Double], pseudo: [Double], pseudoWeight: Double)
        -> [Double]
    {
        var points = values.map { ($0, 1.0) } + pseudo.map { ($0, pseudoWeight) }
        guard !points.isEmpty else { return levels.map { _ in 0 } }
        points.sort { $0.0 < $1.0 }
        let total = points.reduce(0) { $0 + $1.1 }
        return levels.map { level in
            var cumulative = 0.0
            for (value, weight) in points {
                cumulative += weight
                if cumulative >= level * total - 1e-12 { return value }
            }
            return points[points.count - 1].0
        }
    }

    /// The distribution served with a combination: the quantiles at the cohort's interval level and its
    /// complement of the user's out-of-fold errors together with the cohort's error quantiles, counted as
    /// `intervalPseudoDays` days (split-conformal on the fold errors, the cohort's the prior of a short history).
    static func distribution(errors: [Double], cohort: CohortSettings, spec: ModelSpec) -> ForecastDistribution {
        let pseudo = cohort.errorQuantiles
        guard !errors.isEmpty || !pseudo.isEmpty else {
            // No error seen yet, the user's or the cohort's: the interval is the whole scale.
            let width = spec.target.maximum - spec.target.minimum
            return ForecastDistribution(lower: -width, upper: width, coverage: spec.combination.intervalCoverage)
        }
        let weight = pseudo.isEmpty ? 0 : spec.combination.intervalPseudoDays / Double(pseudo.count)
        let level = cohort.intervalLevel
        let ends = quantiles([level, 1 - level], of: errors, pseudo: pseudo, pseudoWeight: weight)
        return ForecastDistribution(
            lower: ends[0], upper: ends[1],
            coverage: spec.combination.intervalCoverage)
    }
}
