public import Domain
internal import Foundation
internal import ModelSpecs

/// A model's definition as data: which inputs become which features, the target, the penalty grid and
/// the training rules. Decoded from a versioned JSON file under `Models/`; an artifact records the
/// `version` it was trained with, and a changed spec must raise it.
public struct ModelSpec: Sendable, Hashable, Codable {
    public var name: String
    public var version: Int
    public var target: Target
    public var inputs: [Input] { didSet { expandFeatures() } }
    /// One indicator per weekday of the *predicted* day (known in advance, so no leakage).
    public var targetWeekdayOneHot: Bool { didSet { expandFeatures() } }
    public var ridge: Ridge
    public var flare: Flare
    public var training: Training
    public var selection: Selection
    public var population: Population
    public var combination: Combination

    /// The features, expanded from the inputs in a fixed order: once when the spec is made or its inputs
    /// change, not on every use (every artifact and every design reads them). Not encoded.
    private(set) var features: [Feature] = []
    /// The feature names in design-matrix column order. Stable for a given spec version.
    public private(set) var featureNames: [String] = []

    enum CodingKeys: String, CodingKey {
        case name, version, target, inputs, targetWeekdayOneHot, ridge, flare, training, selection, population
        case combination
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        version = try container.decode(Int.self, forKey: .version)
        target = try container.decode(Target.self, forKey: .target)
        inputs = try container.decode([Input].self, forKey: .inputs)
        targetWeekdayOneHot = try container.decode(Bool.self, forKey: .targetWeekdayOneHot)
        ridge = try container.decode(Ridge.self, forKey: .ridge)
        flare = try container.decode(Flare.self, forKey: .flare)
        training = try container.decode(Training.self, forKey: .training)
        selection = try container.decode(Selection.self, forKey: .selection)
        population = try container.decode(Population.self, forKey: .population)
        combination = try container.decode(Combination.self, forKey: .combination)
        expandFeatures()
    }

    /// The predicted quantity: the next day's value of `field`, kept within `minimum…maximum`.
    public struct Target: Sendable, Hashable, Codable {
        public var field: Field
        public var minimum: Double
        public var maximum: Double
    }

    /// One logged field and the features derived from it. Values are divided by `divisor` first
    /// (seconds → hours, steps → thousands) so coefficients read in natural units.
    public struct Input: Sendable, Hashable, Codable {
        public var name: String
        public var field: Field
        public var divisor: Double
        /// The value (after `divisor`) imputed for a field a user has never logged, so that pooled
        /// statistics never mix in zeros.
        public var typical: Double
        /// Day offsets before the feature day: `[1, 2]` adds `name_lag1`, `name_lag2`.
        public var lags: [Int]
        /// Adds `name_meanN`: the mean of the logged values over the N days ending on the feature day.
        public var rollingMeanDays: Int?
        /// Adds `name_devN`: the feature day's value minus the mean over the N days before it.
        public var baselineDays: Int?
        /// Adds `name_missing`: 1 when the feature day's value was not logged.
        public var missingIndicator: Bool
        /// Adds `name_ewmNN` for each smoothing constant α (NN = 100α): the exponentially weighted mean of the logged
        /// values through the feature day, each logged value weighted (1 − α)^k where k counts the logged values
        /// after it (simple exponential smoothing over the days logged, started from the first), the weights
        /// normalized so that a short history is its plain mean.
        public var exponentialMeans: [Double]
        /// When set, the exponential means start again where the input's level changed: see `LevelShift`.
        public var levelShift: LevelShift?
    }

    /// A lasting change in the level of an input's logged values, after which its exponential means read only the
    /// values since the change. Among the ways to split the last `searchDays` logged values into an earlier and a
    /// later run of at least `minimumDays` each, the split whose two means differ by the most standard errors
    /// (their pooled deviation, at least `minimumDeviation`) marks a change when they differ by more than
    /// `threshold`: a person whose reports moved from 10 to 5 and stayed there is followed within days by every
    /// smoothing, where a long mean over both levels would take months.
    public struct LevelShift: Sendable, Hashable, Codable {
        public var threshold: Double
        public var minimumDays: Int
        public var searchDays: Int
        public var minimumDeviation: Double
    }

    public struct Ridge: Sendable, Hashable, Codable {
        /// Candidate penalties, tried in this order; the first with the lowest leave-one-out error wins.
        public var alphas: [Double]
    }

    public struct Flare: Sendable, Hashable, Codable {
        /// A day is a flare when its target value is at least this.
        public var threshold: Double
        /// scikit-learn's `C`: the loss is summed, the penalty is ‖w‖²/(2C), the intercept is free.
        public var inverseRegularization: Double
        /// Newton stops when the largest gradient entry of the mean loss is at most this.
        public var tolerance: Double
        public var maximumIterations: Int
    }

    public struct Training: Sendable, Hashable, Codable {
        /// A personal model needs at least this many usable days before the hold-out.
        public var minimumUsableDays: Int
        /// The last this-many target days before today are the evaluation window: rolling-origin folds of
        /// `foldDays` days, each scored by models trained only on the days before it. The population model
        /// pools only days before the window.
        public var holdoutDays: Int
        public var foldDays: Int
        /// Every this-many training rows (by target day) also appear a second time with the user's own
        /// entries of the day before hidden, as a forecast made before the user has logged yesterday sees them.
        public var hideYesterdayEvery: Int

        /// The number of folds in the evaluation window.
        public var folds: Int { holdoutDays / foldDays }
    }

    /// How the served flare head is chosen among the candidates scored on the folds.
    public struct Selection: Sendable, Hashable, Codable {
        /// The flare head serving stays unless another beats its mean log-loss by more than this.
        public var flareMargin: Double
        /// The weight, in days, that pulls the flare calibration toward the identity (no change).
        public var calibrationPseudoDays: Double
    }

    /// How the served forecast combines the candidates (`Learning/README.md`, "What is served"): weights learned
    /// for the cohort on a sample of users' rolling-origin folds, moved per user by their own folds only as far
    /// as `priorPseudoDays` lets them, and an interval from the combination's out-of-fold errors.
    public struct Combination: Sendable, Hashable, Codable {
        /// The smoothing constants the cohort chooses its exponential smoothing from; each must be one of the
        /// target input's `exponentialMeans`.
        public var smoothingConstants: [Double]
        /// The smoothing served before a cohort has chosen one (no population model yet).
        public var defaultSmoothing: Double
        /// The `exponentialMeans` constant whose mean stands for the person's long-run level.
        public var longMean: Double
        /// Users (a seeded sample) whose folds the cohort's settings are learned from.
        public var cohortUsers: Int
        /// The strengths, in days of a person's own fold evidence, with which the cohort's weights hold a person's
        /// weights; the cohort chooses one by its out-of-fold error.
        public var priorPseudoDays: [Double]
        /// The share of days the forecast interval should cover.
        public var intervalCoverage: Double
        /// Days of evidence the cohort's error distribution counts as in a person's interval.
        public var intervalPseudoDays: Double
    }

    public struct Population: Sendable, Hashable, Codable {
        /// Rows kept (a seeded bottom-k sample) for the population flare head.
        public var flareSampleRows: Int
        public var sampleSeed: UInt64
        /// A pooled model needs this many rows from at least `minimumUsers` users; below that the users are
        /// served their own baselines and personal fits shrink toward their own mean.
        public var minimumRows: Int
        public var minimumUsers: Int
    }

    /// The spec shipped in `Models/symptom-forecast.json`. The file is part of the binary, so a
    /// decoding failure is a build defect and traps.
    public static let symptomForecast: ModelSpec = {
        do {
            return try ModelSpec(json: EmbeddedModelSpecs.symptomForecast)
        } catch {
            preconditionFailure("embedded Models/symptom-forecast.json: \(error)")
        }
    }()

    /// Decodes and validates a spec.
    public init(json: [UInt8]) throws(LearningError) {
        let decoded: ModelSpec
        do {
            decoded = try JSONDecoder().decode(ModelSpec.self, from: Data(json))
        } catch {
            throw .invalidSpec(problem: "not a model spec (\(error))")
        }
        try decoded.validate()
        self = decoded
    }

    /// Checks what the JSON schema cannot: positive penalties, distinct names, sane windows.
    public func validate() throws(LearningError) {
        guard version >= 1 else { throw .invalidSpec(problem: "version must be at least 1") }
        guard !ridge.alphas.isEmpty, ridge.alphas.allSatisfy({ $0 > 0 && $0.isFinite }) else {
            throw .invalidSpec(problem: "ridge.alphas must be positive finite numbers")
        }
        guard flare.inverseRegularization > 0, flare.tolerance > 0, flare.maximumIterations > 0 else {
            throw .invalidSpec(problem: "flare needs a positive inverseRegularization, tolerance and maximumIterations")
        }
        guard training.minimumUsableDays >= 2, training.holdoutDays >= 1, training.foldDays >= 1,
            training.holdoutDays % training.foldDays == 0, training.hideYesterdayEvery >= 1
        else {
            throw .invalidSpec(
                problem:
                    "training needs minimumUsableDays ≥ 2, foldDays ≥ 1 dividing holdoutDays, hideYesterdayEvery ≥ 1")
        }
        guard selection.flareMargin >= 0, selection.calibrationPseudoDays > 0 else {
            throw .invalidSpec(problem: "selection needs a non-negative flareMargin and positive calibrationPseudoDays")
        }
        guard population.flareSampleRows >= 1, population.minimumRows >= 2, population.minimumUsers >= 1 else {
            throw .invalidSpec(problem: "population needs flareSampleRows ≥ 1, minimumRows ≥ 2 and minimumUsers ≥ 1")
        }
        guard let targetInput = inputs.first(where: { $0.field == self.target.field }) else {
            throw .invalidSpec(problem: "the target field must also be an input (the persistence baseline reads it)")
        }
        let smoothing = combination.smoothingConstants + [combination.defaultSmoothing, combination.longMean]
        guard !combination.smoothingConstants.isEmpty, smoothing.allSatisfy(targetInput.exponentialMeans.contains),
            combination.smoothingConstants.contains(combination.defaultSmoothing)
        else {
            throw .invalidSpec(
                problem: "combination's smoothing constants, default and long mean must be among the target input's "
                    + "exponentialMeans, the default among the smoothing constants")
        }
        guard combination.cohortUsers >= 1, !combination.priorPseudoDays.isEmpty,
            combination.priorPseudoDays.allSatisfy({ $0 > 0 && $0.isFinite }),
            combination.intervalCoverage > 0, combination.intervalCoverage < 1, combination.intervalPseudoDays >= 0
        else {
            throw .invalidSpec(
                problem: "combination needs cohortUsers ≥ 1, positive priorPseudoDays, an intervalCoverage between 0 "
                    + "and 1 and non-negative intervalPseudoDays")
        }
        for input in inputs {
            guard input.exponentialMeans.allSatisfy({ $0 > 0 && $0 <= 1 }) else {
                throw .invalidSpec(problem: "input \(input.name) has a smoothing constant outside (0, 1]")
            }
            guard input.divisor > 0, input.typical.isFinite else {
                throw .invalidSpec(problem: "input \(input.name) needs a positive divisor and a finite typical value")
            }
            guard input.lags.allSatisfy({ $0 >= 1 }), (input.rollingMeanDays ?? 1) >= 1, (input.baselineDays ?? 1) >= 1
            else { throw .invalidSpec(problem: "input \(input.name) has a window shorter than one day") }
            if let shift = input.levelShift {
                guard shift.threshold > 0, shift.minimumDays >= 2, shift.searchDays >= 2 * shift.minimumDays,
                    shift.minimumDeviation > 0
                else {
                    throw .invalidSpec(
                        problem: "input \(input.name)'s levelShift needs a positive threshold and minimumDeviation, "
                            + "minimumDays ≥ 2 and searchDays ≥ twice minimumDays")
                }
            }
        }
        guard Set(featureNames).count == featureNames.count, !featureNames.isEmpty else {
            throw .invalidSpec(problem: "feature names must be distinct and not empty")
        }
    }

    private mutating func expandFeatures() {
        var result: [Feature] = []
        for (index, input) in inputs.enumerated() {
            result.append(Feature(name: input.name, input: index, kind: .value))
            for lag in input.lags {
                result.append(Feature(name: "\(input.name)_lag\(lag)", input: index, kind: .lag(lag)))
            }
            if let days = input.rollingMeanDays {
                result.append(Feature(name: "\(input.name)_mean\(days)", input: index, kind: .rollingMean(days)))
            }
            if let days = input.baselineDays {
                result.append(Feature(name: "\(input.name)_dev\(days)", input: index, kind: .baselineDeviation(days)))
            }
            if input.missingIndicator {
                result.append(Feature(name: "\(input.name)_missing", input: index, kind: .missing))
            }
            for alpha in input.exponentialMeans {
                result.append(
                    Feature(
                        name: "\(input.name)_ewm\(Self.percent(alpha))", input: index, kind: .exponentialMean(alpha)))
            }
        }
        if targetWeekdayOneHot {
            for (weekday, name) in ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].enumerated() {
                result.append(Feature(name: "weekday_\(name)", input: nil, kind: .targetWeekday(weekday)))
            }
        }
        features = result
        featureNames = result.map(\.name)
    }

    /// A smoothing constant as it appears in a feature name: 0.05 → "05", 0.3 → "30".
    static func percent(_ alpha: Double) -> String {
        let value = Int((alpha * 100).rounded())
        return value < 10 ? "0\(value)" : "\(value)"
    }

    /// The column of the target input's exponentially weighted mean with constant `alpha`.
    func exponentialMeanColumn(_ alpha: Double) -> Int? {
        let target = inputs.firstIndex { $0.field == self.target.field }
        return features.firstIndex { $0.input == target && $0.kind == .exponentialMean(alpha) }
    }

    /// `bounds` with the target input's own features opened to the whole range the target allows: a forecast
    /// may follow a person's severity anywhere within its scale, while an input's extreme day is still clipped
    /// to the range the model learned from.
    func openingTargetFeatures(_ bounds: ModelArtifact.FeatureBounds) -> ModelArtifact.FeatureBounds {
        let target = inputs.firstIndex { $0.field == self.target.field }
        let divisor = target.map { inputs[$0].divisor } ?? 1
        let (low, high) = (self.target.minimum / divisor, self.target.maximum / divisor)
        var opened = bounds
        for (j, feature) in features.enumerated() where feature.input == target {
            switch feature.kind {
            case .value, .lag, .rollingMean, .exponentialMean: (opened.lower[j], opened.upper[j]) = (low, high)
            case .baselineDeviation: (opened.lower[j], opened.upper[j]) = (low - high, high - low)
            case .missing, .targetWeekday: break
            }
        }
        return opened
    }

    /// The value imputed for a feature when the user has no logged value to average.
    func fallbackValue(of feature: Feature) -> Double {
        guard let input = feature.input else { return 0 }
        switch feature.kind {
        case .value, .lag, .rollingMean, .exponentialMean: return inputs[input].typical
        case .baselineDeviation, .missing, .targetWeekday: return 0
        }
    }
}

/// One design-matrix column.
struct Feature: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case value
        case lag(Int)
        case rollingMean(Int)
        case baselineDeviation(Int)
        case exponentialMean(Double)
        case missing
        case targetWeekday(Int)
    }

    var name: String
    /// Index into `ModelSpec.inputs`; `nil` for calendar features.
    var input: Int?
    var kind: Kind
}

extension KeyedDecodingContainer {
    /// A `Field` by its raw name; `Field` itself is not `Codable` (it belongs to `Domain`).
    fileprivate func decodeField(forKey key: Key) throws -> Field {
        let name = try decode(String.self, forKey: key)
        guard let field = Field(rawValue: name) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "unknown field \(name)")
        }
        return field
    }
}

extension ModelSpec.Target {
    enum CodingKeys: String, CodingKey { case field, minimum, maximum }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        field = try container.decodeField(forKey: .field)
        minimum = try container.decode(Double.self, forKey: .minimum)
        maximum = try container.decode(Double.self, forKey: .maximum)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(field.rawValue, forKey: .field)
        try container.encode(minimum, forKey: .minimum)
        try container.encode(maximum, forKey: .maximum)
    }
}

extension ModelSpec.Input {
    enum CodingKeys: String, CodingKey {
        case name, field, divisor, typical, lags, rollingMeanDays, baselineDays, missingIndicator, exponentialMeans
        case levelShift
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        field = try container.decodeField(forKey: .field)
        divisor = try container.decode(Double.self, forKey: .divisor)
        typical = try container.decode(Double.self, forKey: .typical)
        lags = try container.decode([Int].self, forKey: .lags)
        rollingMeanDays = try container.decodeIfPresent(Int.self, forKey: .rollingMeanDays)
        baselineDays = try container.decodeIfPresent(Int.self, forKey: .baselineDays)
        missingIndicator = try container.decode(Bool.self, forKey: .missingIndicator)
        exponentialMeans = try container.decodeIfPresent([Double].self, forKey: .exponentialMeans) ?? []
        levelShift = try container.decodeIfPresent(ModelSpec.LevelShift.self, forKey: .levelShift)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(field.rawValue, forKey: .field)
        try container.encode(divisor, forKey: .divisor)
        try container.encode(typical, forKey: .typical)
        try container.encode(lags, forKey: .lags)
        try container.encode(rollingMeanDays, forKey: .rollingMeanDays)
        try container.encode(baselineDays, forKey: .baselineDays)
        try container.encode(missingIndicator, forKey: .missingIndicator)
        if !exponentialMeans.isEmpty { try container.encode(exponentialMeans, forKey: .exponentialMeans) }
        try container.encodeIfPresent(levelShift, forKey: .levelShift)
    }
}
