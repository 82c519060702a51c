public import Domain
public import Foundation

/// What one retrain produced for a user. History keeps `artifact` whether or not it was promoted; only a
/// promoted artifact replaces the serving one (atomically, in storage). A user with no promoted artifact is
/// served the population model.
public struct TrainingOutcome: Sendable, Hashable {
    public var artifact: ModelArtifact
    /// The other servable kinds as they would be served (fitted on every row, the user's imputation and
    /// bounds, the selected flare head): the personal model when it could be fitted, the population model
    /// when it is pooled, and the two baselines. For measuring what the selection gained (`pipeline evaluate`).
    public var alternatives: [ModelSource: ModelArtifact] = [:]
    /// Every candidate's forecast on the fold days: what `CohortCalibration` learns the cohort's settings from.
    var evidence = FoldForecasts()
    public var promoted: Bool { artifact.promoted }
    public var reason: String { artifact.reason }
    public var metrics: HoldoutMetrics? { artifact.metrics }
}

/// The penalties and coefficients of a plain fit of an exported design matrix (see `ModelTrainer.fit`).
public struct FitSummary: Sendable, Hashable {
    public var alpha: Double
    public var severityCoefficients: [Double]
    public var severityIntercept: Double
    /// `nil` when the matrix has one class of flare label.
    public var flareCoefficients: [Double]?
    public var flareIntercept: Double?
}

/// Trains a user's models and selects the one to serve, one user at a time, reusing scratch buffers between users.
///
/// Not shared between concurrent tasks: give each worker its own trainer (it is a value; a copy has its
/// own buffers). OpenBLAS is set to one thread on first use; parallelism belongs to the caller.
///
/// For a user, on `today` (see `Learning/README.md`, "How a user is trained"):
/// 1. rows are built from logs before `today` (`FeatureBuilder`), with hidden-yesterday copies;
/// 2. with at least `minimumUsableDays` usable rows a personal model is fitted on all of them: missing values
///    take the user's means, features are standardized, a ridge (alpha by exact leave-one-out) is fitted to the
///    residual of the population model, and a logistic flare head with the population's logit as offset;
/// 3. the candidates — that personal procedure, the population model, "tomorrow = today", the user's recent
///    mean, and the incumbent as it is — are scored on rolling-origin folds over the last `holdoutDays`, each
///    fold's models fitted only on the days before it;
/// 4. the best severity model on that evidence is served, the incumbent's kind kept when it is within the
///    margin and not worse than a baseline; the flare head is chosen on its own log-loss and calibrated.
public struct ModelTrainer: Sendable {
    public let spec: ModelSpec
    let builder: FeatureBuilder
    var ridge = RidgeWorkspace()
    var logistic = LogisticWorkspace()
    var standardized = Matrix(rows: 0, columns: 0)
    var offsets: [Double] = []
    var flareOffsets: [Double] = []
    var residuals: [Double] = []
    /// Set while `foldForecasts` scores a user: the personal flare heads are not fitted.
    var skipsFlareHeads = false

    public init(spec: ModelSpec = .symptomForecast) {
        self.spec = spec
        builder = FeatureBuilder(spec: spec)
    }

    /// Trains, scores and selects a user's model. `incumbent` is the artifact serving before this retrain (it
    /// is re-scored and its kind keeps serving within the margin). Throws when a fit fails numerically (the
    /// previous model stays).
    public mutating func train(
        user: UserID, logs: [DailyLog], today: Day, population: PopulationModel, incumbent: ModelArtifact? = nil,
        trainedAt: Date
    ) throws(LearningError) -> TrainingOutcome {
        try train(
            user: user, design: builder.designMatrix(logs: logs, today: today), today: today, population: population,
            incumbent: incumbent, trainedAt: trainedAt)
    }

    /// `train(user:logs:…)` from the days a retrain reads: their values and sources, without the notes.
    public mutating func train(
        user: UserID, days: [SourcedDayValues], today: Day, population: PopulationModel,
        incumbent: ModelArtifact? = nil, trainedAt: Date
    ) throws(LearningError) -> TrainingOutcome {
        try train(
            user: user, design: builder.designMatrix(days: days, today: today), today: today, population: population,
            incumbent: incumbent, trainedAt: trainedAt)
    }

    /// `train(user:logs:…)` from the user's design matrix for `today`, already built by
    /// `FeatureBuilder.designMatrix(logs:today:)` (e.g. once for this and for `PopulationAccumulator.add`).
    public mutating func train(
        user: UserID, design: DesignMatrix, today: Day, population: PopulationModel, incumbent: ModelArtifact? = nil,
        trainedAt: Date
    ) throws(LearningError) -> TrainingOutcome {
        precondition(population.spec == spec, "population model of another spec")
        precondition(design.featureNames == spec.featureNames, "a design of another spec")
        return try select(
            user: user, design: design, today: today, population: population,
            incumbent: incumbent.flatMap { (try? $0.check(against: spec)) == nil ? nil : $0 }, trainedAt: trainedAt)
    }

    /// The matrix the user's personal fit on `today` learns from — every row, missing values imputed — or `nil`
    /// when the user has too few usable days for a personal model. Its CSV is what
    /// `pipeline features` prints.
    public func trainingDesign(logs: [DailyLog], today: Day) -> DesignMatrix? {
        let design = builder.designMatrix(logs: logs, today: today)
        guard design.usableRowCount >= spec.training.minimumUsableDays else { return nil }
        return design.imputed(with: builder.imputation(for: design))
    }

    /// Standardizes an exported design matrix and fits the two heads without pooling — the same work
    /// scikit-learn's StandardScaler + RidgeCV + LogisticRegression do in scripts/reference/bench_sklearn.py,
    /// for measuring throughput on identical matrices. Missing values take the column means.
    public mutating func fit(_ design: DesignMatrix) throws(LearningError) -> FitSummary {
        precondition(design.featureNames.count == design.columnCount && design.rowCount >= 2, "fit needs 2 rows")
        // A missing value (NaN) makes its column's mean NaN: the standardization's own pass finds it, and only then
        // are missing values imputed and the columns fitted again.
        var x = design
        var standardization = Standardization(fitting: x.values)
        if standardization.means.contains(where: \.isNaN) {
            x = design.imputed(with: design.observedMeans(fallback: Array(repeating: 0, count: design.columnCount)))
            standardization = Standardization(fitting: x.values)
        }
        standardization.apply(x.values, into: &standardized)
        let severity = try ridge.fitLeaveOneOut(x: standardized, y: x.targets, alphas: spec.ridge.alphas)
        let labels = x.targets.map { $0 >= spec.flare.threshold ? 1.0 : 0.0 }
        let flares = labels.reduce(0, +)
        var summary = FitSummary(
            alpha: severity.alpha, severityCoefficients: severity.coefficients, severityIntercept: severity.intercept)
        if flares > 0 && flares < Double(labels.count) {
            let flare = try logistic.fit(
                x: standardized, y: labels, offset: nil, inverseRegularization: spec.flare.inverseRegularization,
                tolerance: spec.flare.tolerance, maximumIterations: spec.flare.maximumIterations)
            summary.flareCoefficients = flare.coefficients
            summary.flareIntercept = flare.intercept
        }
        return summary
    }

    /// Predicts `day` for a user from an artifact, using logs before `day` (see `ModelArtifact.forecast`).
    public func predict(
        _ artifact: ModelArtifact, logs: [DailyLog], for day: Day
    ) throws(LearningError) -> ForecastPrediction {
        try artifact.forecast(logs: logs, for: day, spec: spec)
    }

}

/// A forecast for one day.
public struct ForecastPrediction: Sendable, Hashable, Codable {
    public var day: Day
    /// The forecast severity, within the target's range: the median of the forecast distribution, a whole
    /// number (the linear forecast itself for an artifact written before distributions existed).
    public var severity: Double
    /// The interval that should hold the day's severity on `coverage` of days (80%), `nil` for an artifact
    /// without a distribution.
    public var interval: ClosedRange<Double>?
    /// Probability that the day is a flare (severity at or above the spec's threshold).
    public var flareProbability: Double
    public var source: ModelSource
    public var specVersion: Int
    public var trainedAt: Date
    /// Inputs not logged on the day before, whose values were imputed.
    public var missingInputs: [String]
}
