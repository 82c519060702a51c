public import Domain
public import Foundation

/// Which model a prediction or artifact comes from.
public enum ModelSource: String, Sendable, Hashable, Codable {
    /// Fitted on the user's own days, shrunk toward the population model.
    case personal
    /// The cohort's population model, with the user's own imputation when it serves a user.
    case population
    /// "Tomorrow = today": the user's severity of the day before (their mean when it is not logged yet).
    case persistence
    /// The user's recent mean: the mean of their logged severity over the 7 days before.
    case recentMean
    /// Exponential smoothing of the user's logged severities, with the cohort's smoothing constant.
    case smoothing
    /// A weighted combination of the other kinds, the weights fitted on the user's rolling-origin folds and held
    /// toward the cohort's (`ModelArtifact.combination`).
    case combined
}

/// A trained model as data: everything needed to predict, and the record of how it was made and why it
/// was or was not promoted. Stable JSON (`jsonData()`): sorted keys, ISO 8601 dates, shortest round-trip
/// numbers, so an unchanged model encodes to the same bytes.
///
/// A prediction from a feature row `x` (NaN where not logged): replace NaN by `imputation`, clip each value to
/// `bounds` (the range seen in training), standardize `z = (x − means) / scales`, then the linear forecast
/// `f = clamp(intercept + coefficients·z)` to the target's range and `P(flare) = σ(flare.intercept +
/// flare.coefficients·z)`. With a `distribution`, the severity served is the whole-number median `round(f)` (within
/// the target's range) and its interval `[round(f + lower), round(f + upper)]`, widened to hold the median;
/// without one (artifacts written before it existed) it is `f`.
public struct ModelArtifact: Sendable, Hashable, Codable {
    public var specName: String
    public var specVersion: Int
    /// The user the model serves; `nil` for the cohort's population model itself.
    public var user: String?
    public var source: ModelSource
    public var featureNames: [String]
    /// The value that replaces a feature that was not logged: the user's mean over the training window.
    public var imputation: [Double]
    /// The range of each feature over the training rows; a prediction clips its inputs to it, so one extreme
    /// day cannot move a forecast further than the most extreme day the model learned from. `nil` in
    /// artifacts written before it existed (no clipping).
    public var bounds: FeatureBounds?
    public var standardization: Standardization
    public var severity: SeverityHead
    public var flare: FlareHead
    /// The weight of each kind in a `combined` model, in `CombinationCandidate` order; `nil` for other kinds.
    public var combination: [CombinationWeight]?
    /// The forecast errors the served median and interval come from; `nil` in artifacts written before it existed.
    public var distribution: ForecastDistribution?
    /// For the population model: the cohort's settings for every user's combination, learned on a sample of
    /// users' folds; `nil` for a user's model.
    public var cohort: CohortSettings?
    /// Hold-out evaluation of this model; `nil` for a population model and when there was nothing to hold out.
    /// Kept for artifacts written before rolling-origin selection; new artifacts fill it from `selection`.
    public var metrics: HoldoutMetrics?
    /// Every candidate's score on the rolling-origin folds and why the winner won; `nil` for the population
    /// model itself and for artifacts written before selection existed.
    public var selection: SelectionRecord?
    /// For the population model: how many users it pooled.
    public var pooledUsers: Int?
    /// The target days the model learned from.
    public var trainingWindow: TrainingWindow?
    /// When the model was trained, to the second.
    public var trainedAt: Date
    public var promoted: Bool
    /// Why it was or was not promoted, in plain words.
    public var reason: String

    /// The next-day severity model, on standardized features.
    public struct SeverityHead: Sendable, Hashable, Codable {
        public var coefficients: [Double]
        public var intercept: Double
        /// The ridge penalty chosen by leave-one-out (personal) or generalized cross-validation (population).
        public var alpha: Double
        /// `population` when the fit was of the residual from the population model (partial pooling); the
        /// coefficients here already include the population's, so the artifact stands alone.
        public var shrunkToward: ModelSource?
    }

    /// The flare head: probability that the predicted day's severity reaches `threshold`.
    public struct FlareHead: Sendable, Hashable, Codable {
        public var coefficients: [Double]
        public var intercept: Double
        public var threshold: Double
        public var inverseRegularization: Double
        /// `personal`, `population`, `baseRate` (the user's own flare rate), or `constant` (the base rate,
        /// when the cohort had one class only). A selected head has its calibration folded in.
        public var fitted: String
    }

    /// Per-feature lower and upper bounds, in the units of the design matrix.
    public struct FeatureBounds: Sendable, Hashable, Codable {
        public var lower: [Double]
        public var upper: [Double]
    }

    public struct TrainingWindow: Sendable, Hashable, Codable {
        public var first: Day
        public var last: Day
        public var usableDays: Int
    }

    /// Predicts from a feature row built by `FeatureBuilder.predictionRow`: the severity served (the median, a
    /// whole number, when the artifact has a distribution), the flare probability and the interval (`nil` without
    /// a distribution).
    public func predict(
        row: [Double], targetRange: ClosedRange<Double>
    ) -> (severity: Double, flare: Double, interval: ClosedRange<Double>?) {
        let (severityValue, flareValue) = linearPredictors(row: row)
        let forecast = min(max(severityValue, targetRange.lowerBound), targetRange.upperBound)
        guard let distribution else { return (forecast, sigmoid(flareValue), nil) }
        let (median, interval) = distribution.served(forecast, within: targetRange)
        return (median, sigmoid(flareValue), interval)
    }

    /// The severity before clamping and the flare logit: the one computation every forecast, served or scored
    /// on a fold, goes through (the row imputed, clipped to the bounds and standardized, then both heads).
    func linearPredictors(row: [Double]) -> (severity: Double, flareLogit: Double) {
        var z: [Double] = []
        standardize(row: row, into: &z)
        return linearPredictors(standardized: z)
    }

    /// The first half of `linearPredictors(row:)`: the row as the heads see it. Artifacts that share
    /// imputation, bounds and standardization (a fold's candidates) share it.
    func standardize(row: [Double], into z: inout [Double]) {
        precondition(row.count == featureNames.count, "row of \(row.count) for \(featureNames.count) features")
        z.resize(to: row.count)
        for j in 0..<row.count {
            var x = row[j].isNaN ? imputation[j] : row[j]
            if let bounds { x = min(max(x, bounds.lower[j]), bounds.upper[j]) }
            z[j] = (x - standardization.means[j]) / standardization.scales[j]
        }
    }

    /// The severity half of `linearPredictors(standardized:)`, the same sum: for a candidate scored on severity alone.
    func severityPredictor(standardized z: [Double]) -> Double {
        precondition(z.count == featureNames.count, "row of \(z.count) for \(featureNames.count) features")
        var severityValue = severity.intercept
        for j in 0..<z.count { severityValue += severity.coefficients[j] * z[j] }
        return severityValue
    }

    /// The second half of `linearPredictors(row:)`, on a row from `standardize(row:into:)`.
    func linearPredictors(standardized z: [Double]) -> (severity: Double, flareLogit: Double) {
        precondition(z.count == featureNames.count, "row of \(z.count) for \(featureNames.count) features")
        var severityValue = severity.intercept
        var flareValue = flare.intercept
        for j in 0..<z.count {
            severityValue += severity.coefficients[j] * z[j]
            flareValue += flare.coefficients[j] * z[j]
        }
        return (severityValue, flareValue)
    }

    /// The forecast for `day` from the user's logs before it (a log on or after `day` is ignored).
    /// Throws `specMismatch` when the artifact was made with another spec.
    public func forecast(
        logs: [DailyLog], for day: Day, spec: ModelSpec = .symptomForecast
    ) throws(LearningError) -> ForecastPrediction {
        try check(against: spec)
        let row = FeatureBuilder(spec: spec).predictionRow(logs: logs, for: day)
        let (severity, flare, interval) = predict(row: row, targetRange: spec.target.minimum...spec.target.maximum)
        let valueColumns = spec.features.enumerated().filter { $0.element.kind == .value }
        return ForecastPrediction(
            day: day, severity: severity, interval: interval, flareProbability: flare, source: source,
            specVersion: specVersion,
            trainedAt: trainedAt,
            missingInputs: valueColumns.compactMap { row[$0.offset].isNaN ? spec.inputs[$0.element.input!].name : nil })
    }

    /// The stable JSON form (`jsonText` as UTF-8). Every number is finite by construction (fits throw
    /// on non-finite results), so the document always encodes.
    public func jsonData() -> Data {
        Data(jsonText.utf8)
    }

    init(
        spec: ModelSpec, user: String?, source: ModelSource, imputation: [Double], bounds: FeatureBounds? = nil,
        standardization: Standardization, severity: SeverityHead, flare: FlareHead, metrics: HoldoutMetrics?,
        trainingWindow: TrainingWindow?, trainedAt: Date, promoted: Bool, reason: String
    ) {
        specName = spec.name
        specVersion = spec.version
        self.user = user
        self.source = source
        featureNames = spec.featureNames
        self.imputation = imputation
        self.bounds = bounds
        self.standardization = standardization
        self.severity = severity
        self.flare = flare
        self.metrics = metrics
        self.trainingWindow = trainingWindow
        // ISO 8601 in JSON keeps whole seconds; truncating here makes the value survive a round trip.
        self.trainedAt = Date(timeIntervalSince1970: trainedAt.timeIntervalSince1970.rounded(.down))
        self.promoted = promoted
        self.reason = reason
    }

    /// Throws unless the artifact was made with `spec`.
    public func check(against spec: ModelSpec) throws(LearningError) {
        guard specName == spec.name, specVersion == spec.version, featureNames == spec.featureNames else {
            throw .specMismatch(artifact: "\(specName) v\(specVersion)", spec: "\(spec.name) v\(spec.version)")
        }
    }
}

/// How a model did on the held-out last days, against the two models it must beat.
public struct HoldoutMetrics: Sendable, Hashable, Codable {
    /// The first and last held-out target days and how many were usable.
    public var first: Day
    public var last: Day
    public var days: Int
    /// Mean absolute error of the next-day severity.
    public var modelMAE: Double
    /// "Tomorrow = today".
    public var persistenceMAE: Double
    public var populationMAE: Double
    /// Exponential smoothing with the cohort's constant; `nil` in artifacts written before it was a candidate.
    public var smoothingMAE: Double? = nil
    /// Mean negative log-likelihood of the flare head (probabilities clipped to [1e-15, 1 − 1e-15]).
    public var flareLogLoss: Double
    public var populationFlareLogLoss: Double
    /// Held-out days that were flares.
    public var flareDays: Int
}

/// One input's association with the next day's severity in a model: how much the prediction changes per
/// unit of today's value (after the spec's divisor: hours of sleep, thousands of steps), through every
/// feature that reads today's value (the value itself, the rolling mean, the baseline deviation).
public struct Association: Sendable, Hashable {
    public var input: String
    public var field: Field
    public var perUnit: Double
}

extension ModelArtifact {
    /// The association of each input with tomorrow's severity, in spec order. Lags and indicators do not
    /// read today's value and do not count; a rolling mean counts 1/N of its coefficient (all days logged).
    public func associations(spec: ModelSpec) -> [Association] {
        var perUnit = [Double](repeating: 0, count: spec.inputs.count)
        for (j, feature) in spec.features.enumerated() {
            guard let input = feature.input else { continue }
            let raw = severity.coefficients[j] / standardization.scales[j]
            switch feature.kind {
            case .value, .baselineDeviation: perUnit[input] += raw
            case .rollingMean(let days): perUnit[input] += raw / Double(days)
            // The newest value's weight in a long history's exponential mean.
            case .exponentialMean(let alpha): perUnit[input] += raw * alpha
            case .lag, .missing, .targetWeekday: break
            }
        }
        return spec.inputs.enumerated().map { Association(input: $1.name, field: $1.field, perUnit: perUnit[$0]) }
    }
}
