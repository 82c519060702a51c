public import Domain
public import Foundation

/// What one retrain produced for a user. History keeps `artifact` whether or not it was promoted; only a
/// promoted artifact replaces the serving one (atomically, in storage). A user with no promoted artifact is
/// served the population model.
public struct TrainingOutcome: Sendable, Hashable {
    public var artifact: ModelArtifact
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

/// Trains personal models, one user at a time, reusing its scratch buffers between users.
///
/// Not shared between concurrent tasks: give each worker its own trainer (it is a value; a copy has its
/// own buffers). OpenBLAS is set to one thread on first use; parallelism belongs to the caller.
///
/// For a user, on `today`:
/// 1. rows are built from logs before `today` (`FeatureBuilder`); the last `holdoutDays` target days are
///    held out, the rest are training rows;
/// 2. with fewer than `minimumUsableDays` training rows the user is served the population model;
/// 3. otherwise missing values take the user's training means, features are standardized on the training
///    rows, and a ridge is fitted by exact leave-one-out to the residual of the population model
///    (partial pooling: the penalty pulls the user toward the population, not toward zero); the flare head
///    is a logistic regression with the population's logit as offset, or the population's head when the
///    training rows have one class;
/// 4. the model is evaluated on the hold-out against persistence and the population model, and
///    `PromotionPolicy` decides. The artifact is the model that was evaluated: it is not refitted on the
///    held-out days, so its metrics describe exactly the coefficients it serves.
public struct ModelTrainer: Sendable {
    public let spec: ModelSpec
    let builder: FeatureBuilder
    private var ridge = RidgeWorkspace()
    private var logistic = LogisticWorkspace()
    private var standardized = Matrix(rows: 0, columns: 0)
    private var offsets: [Double] = []
    private var flareOffsets: [Double] = []
    private var residuals: [Double] = []

    public init(spec: ModelSpec = .symptomForecast) {
        self.spec = spec
        builder = FeatureBuilder(spec: spec)
    }

    /// Trains and evaluates a user's model. Throws when a fit fails numerically (the previous model stays).
    public mutating func train(
        user: UserID, logs: [DailyLog], today: Day, population: PopulationModel, trainedAt: Date
    ) throws(LearningError) -> TrainingOutcome {
        try train(
            user: user, design: builder.designMatrix(logs: logs, today: today), today: today, population: population,
            trainedAt: trainedAt)
    }

    /// `train(user:logs:…)` from the user's design matrix for `today`, already built by
    /// `FeatureBuilder.designMatrix(logs:today:)` (e.g. once for this and for `PopulationAccumulator.add`).
    public mutating func train(
        user: UserID, design: DesignMatrix, today: Day, population: PopulationModel, trainedAt: Date
    ) throws(LearningError) -> TrainingOutcome {
        precondition(population.spec == spec, "population model of another spec")
        precondition(design.featureNames == spec.featureNames, "a design of another spec")
        let split = trainingCount(design, today: today)
        guard split >= spec.training.minimumUsableDays else {
            let artifact = populationArtifact(for: user, design: design, population: population, usableDays: split)
            return TrainingOutcome(artifact: artifact)
        }
        let training = design.rows(0..<split)
        let imputation = builder.imputation(for: training)
        let x = training.imputed(with: imputation)
        let standardization = Standardization(fitting: x.values)
        standardization.apply(x.values, into: &standardized)

        population.linearPredictors(x.values, severity: &offsets, flare: &flareOffsets)
        residuals.resize(to: split)
        for i in 0..<split { residuals[i] = x.targets[i] - offsets[i] }
        let severityFit = try ridge.fitLeaveOneOut(x: standardized, y: residuals, alphas: spec.ridge.alphas)
        let severity = combine(
            delta: severityFit.coefficients, deltaIntercept: severityFit.intercept, standardization: standardization,
            prior: population.artifact.severity.coefficients, priorIntercept: population.artifact.severity.intercept,
            priorStandardization: population.artifact.standardization)

        let labels = x.targets.map { $0 >= spec.flare.threshold ? 1.0 : 0.0 }
        let flares = labels.reduce(0, +)
        var flareDelta = [Double](repeating: 0, count: x.columnCount)
        var flareDeltaIntercept = 0.0
        var flareFitted = "population"
        if flares > 0 && flares < Double(split) {
            let fit = try logistic.fit(
                x: standardized, y: labels, offset: flareOffsets,
                inverseRegularization: spec.flare.inverseRegularization,
                tolerance: spec.flare.tolerance, maximumIterations: spec.flare.maximumIterations)
            flareDelta = fit.coefficients
            flareDeltaIntercept = fit.intercept
            flareFitted = "personal"
        }
        let flare = combine(
            delta: flareDelta, deltaIntercept: flareDeltaIntercept, standardization: standardization,
            prior: population.artifact.flare.coefficients, priorIntercept: population.artifact.flare.intercept,
            priorStandardization: population.artifact.standardization)

        var artifact = ModelArtifact(
            spec: spec, user: user.rawValue, source: .personal, imputation: imputation,
            standardization: standardization,
            severity: .init(
                coefficients: severity.coefficients, intercept: severity.intercept, alpha: severityFit.alpha,
                shrunkToward: .population),
            flare: .init(
                coefficients: flare.coefficients, intercept: flare.intercept, threshold: spec.flare.threshold,
                inverseRegularization: spec.flare.inverseRegularization, fitted: flareFitted),
            metrics: nil,
            trainingWindow: .init(first: training.days[0], last: training.days[split - 1], usableDays: split),
            trainedAt: trainedAt, promoted: false, reason: "")
        artifact.metrics = evaluate(artifact, holdout: design.rows(split..<design.rowCount), population: population)
        (artifact.promoted, artifact.reason) = PromotionPolicy.decide(artifact.metrics)
        return TrainingOutcome(artifact: artifact)
    }

    /// The matrix the user's fit on `today` learns from — training rows, missing values imputed — or `nil`
    /// when the user has too few usable days and is served the population model. Its CSV is what
    /// `pipeline features` prints.
    public func trainingDesign(logs: [DailyLog], today: Day) -> DesignMatrix? {
        let design = builder.designMatrix(logs: logs, today: today)
        let split = trainingCount(design, today: today)
        guard split >= spec.training.minimumUsableDays else { return nil }
        let training = design.rows(0..<split)
        return training.imputed(with: builder.imputation(for: training))
    }

    /// Standardizes an exported design matrix and fits the two heads without pooling — the same work
    /// scikit-learn's StandardScaler + RidgeCV + LogisticRegression do in scripts/reference/bench_sklearn.py,
    /// for measuring throughput on identical matrices. Missing values take the column means.
    public mutating func fit(_ design: DesignMatrix) throws(LearningError) -> FitSummary {
        precondition(design.featureNames.count == design.columnCount && design.rowCount >= 2, "fit needs 2 rows")
        let x =
            design.hasMissingValues
            ? design.imputed(with: design.observedMeans(fallback: Array(repeating: 0, count: design.columnCount)))
            : design
        let standardization = Standardization(fitting: x.values)
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

    /// Rows whose target day is before the hold-out window.
    private func trainingCount(_ design: DesignMatrix, today: Day) -> Int {
        let holdoutStart = today.adding(days: -spec.training.holdoutDays)
        return design.days.firstIndex { $0 >= holdoutStart } ?? design.rowCount
    }

    private func populationArtifact(
        for user: UserID, design: DesignMatrix, population: PopulationModel, usableDays: Int
    ) -> ModelArtifact {
        // The coefficients and `trainedAt` stay the population model's; only the imputation is the user's.
        var artifact = population.artifact
        artifact.user = user.rawValue
        artifact.imputation = builder.imputation(for: design)
        artifact.metrics = nil
        artifact.promoted = true
        let days = usableDays == 1 ? "1 usable day" : "\(usableDays) usable days"
        artifact.reason =
            "promoted: serving the population model, because a personal model needs "
            + "\(spec.training.minimumUsableDays) usable days before the hold-out and the user has \(days)"
        return artifact
    }

    /// Folds a fit on the user's standardized features of the residual from a prior (on the prior's
    /// standardization) into one model on the user's standardization.
    private func combine(
        delta: [Double], deltaIntercept: Double, standardization: Standardization, prior: [Double],
        priorIntercept: Double, priorStandardization: Standardization
    ) -> (coefficients: [Double], intercept: Double) {
        var coefficients = delta
        var intercept = deltaIntercept + priorIntercept
        for j in 0..<delta.count {
            let perUnit = prior[j] / priorStandardization.scales[j]
            coefficients[j] += perUnit * standardization.scales[j]
            intercept += perUnit * (standardization.means[j] - priorStandardization.means[j])
        }
        return (coefficients, intercept)
    }

    /// Hold-out metrics, or `nil` when nothing was held out.
    private func evaluate(
        _ artifact: ModelArtifact, holdout: DesignMatrix, population: PopulationModel
    ) -> HoldoutMetrics? {
        let n = holdout.rowCount
        guard n > 0 else { return nil }
        let range = spec.target.minimum...spec.target.maximum
        var modelError = 0.0
        var persistenceError = 0.0
        var populationError = 0.0
        var modelLoss = 0.0
        var populationLoss = 0.0
        var flareDays = 0
        for i in 0..<n {
            let row = holdout.row(i).enumerated().map { $1.isNaN ? artifact.imputation[$0] : $1 }
            let target = holdout.targets[i]
            let flare = target >= spec.flare.threshold
            if flare { flareDays += 1 }
            let mine = artifact.predict(row: row, targetRange: range)
            let theirs = population.artifact.predict(row: row, targetRange: range)
            modelError += abs(mine.severity - target)
            populationError += abs(theirs.severity - target)
            persistenceError += abs(holdout.persistence[i] - target)
            modelLoss += crossEntropy(mine.flare, flare)
            populationLoss += crossEntropy(theirs.flare, flare)
        }
        let count = Double(n)
        return HoldoutMetrics(
            first: holdout.days[0], last: holdout.days[n - 1], days: n, modelMAE: modelError / count,
            persistenceMAE: persistenceError / count, populationMAE: populationError / count,
            flareLogLoss: modelLoss / count, populationFlareLogLoss: populationLoss / count, flareDays: flareDays)
    }

    private func crossEntropy(_ probability: Double, _ flare: Bool) -> Double {
        let clipped = min(max(probability, 1e-15), 1 - 1e-15)
        return flare ? -log(clipped) : -log(1 - clipped)
    }
}

/// A forecast for one day.
public struct ForecastPrediction: Sendable, Hashable, Codable {
    public var day: Day
    /// Expected symptom severity, within the target's range.
    public var severity: Double
    /// Probability that the day is a flare (severity at or above the spec's threshold).
    public var flareProbability: Double
    public var source: ModelSource
    public var specVersion: Int
    public var trainedAt: Date
    /// Inputs not logged on the day before, whose values were imputed.
    public var missingInputs: [String]
}
