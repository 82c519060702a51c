import Domain
import Foundation
import TestSupport
import Testing

@testable import Learning

/// On a synthetic cohort with a known ground truth (SyntheticCohort.swift), the trained models find the
/// generating coefficients and forecast better than "tomorrow = today".
@Suite("Synthetic cohort recovery")
struct RecoveryTests {
    static let start = Day("2025-01-01")!
    /// Noise of the generating model: ε ~ N(0, 0.6²) plus rounding to whole points (variance 1/12).
    static let noise = (0.36 + 1.0 / 12).squareRoot()

    /// The shipped spec without hidden-yesterday rows. The sampling argument below assumes every row
    /// follows the generating model in its features, which a row whose day-before entries are hidden does
    /// not (its target depends on a value the row cannot see); those rows trade a small bias in the
    /// day-before coefficients for forecasts made before the user logs, which ModelSelectionTests measures.
    static let spec: ModelSpec = {
        var spec = ModelSpec.symptomForecast
        spec.training.hideYesterdayEvery = 1_000_003
        return spec
    }()

    /// 40 users with 150…384 days of logs, each retrained on the day after their last log.
    static func trainCohort() throws -> (
        [(user: SyntheticUser, outcome: TrainingOutcome, today: Day)], PopulationModel
    ) {
        let users = SyntheticUser.cohort(count: 40, days: { 150 + ($0 * 53) % 235 }, start: start, seed: 2026)
        let today = users.map { $0.logs.last!.day }.max()!.adding(days: 1)
        var accumulator = PopulationAccumulator(spec: spec, today: today)
        for user in users { accumulator.add(user: user.id, logs: user.logs) }
        let builder = FeatureBuilder(spec: spec)
        let population = try accumulator.model(trainedAt: Date(iso: "2026-03-01T03:00:00Z")).calibrated(
            on: users.map {
                (
                    $0.id, builder.designMatrix(logs: $0.logs, today: $0.logs.last!.day.adding(days: 1)),
                    $0.logs.last!.day.adding(days: 1)
                )
            })
        var trainer = ModelTrainer(spec: spec)
        let trained = try users.map { user in
            let userToday = user.logs.last!.day.adding(days: 1)
            let outcome = try trainer.train(
                user: user.id, logs: user.logs, today: userToday, population: population,
                trainedAt: Date(iso: "2026-03-01T03:00:00Z"))
            return (user, outcome, userToday)
        }
        return (trained, population)
    }

    /// Each user with 180 days or more recovers b_sleep, b_hrv, b_steps and b_today: the served association
    /// lies within four standard deviations of where the estimator must put it.
    ///
    /// Why that tolerance: given the user's training rows Z (standardized), the penalty α and the population
    /// model, the served coefficients are w_pop + (ZᵀZ + αI)⁻¹Zᵀ(y − Z·w_pop). Under the generating model
    /// (y = Z·w* + ε, ε of standard deviation σ) an association gᵀw is Gaussian with mean
    /// gᵀw* − α·gᵀ(ZᵀZ + αI)⁻¹(w* − w_pop) — the truth plus the shrinkage toward the population — and
    /// standard deviation σ·‖Z(ZᵀZ + αI)⁻¹g‖. Four standard deviations hold with probability 1 − 6·10⁻⁵
    /// per check. The model is exact up to the 5% of imputed covariates and the rare clamping at 0 and 10:
    /// on 300 synthetic users (1,200 checks) the standardized errors had a root mean square of 1.07 and a
    /// maximum of 3.4. A model that missed a covariate would be off by its whole coefficient, at least 6
    /// standard deviations for sleep, HRV and steps there. And the shrinkage itself must pay off: over the
    /// cohort the served associations are closer to the truth than the population's.
    @Test("users with 180 days or more recover their generating coefficients")
    func recovery() throws {
        let (trained, population) = try Self.trainCohort()
        let spec = Self.spec
        let populationFound = Dictionary(
            uniqueKeysWithValues: population.artifact.associations(spec: spec).map { ($0.input, $0.perUnit) })
        var servedSquares = 0.0
        var populationSquares = 0.0
        var checked = 0
        for (user, outcome, today) in trained where Self.start.distance(to: today) >= 180 {
            let personal = try #require(outcome.alternatives[.personal])
            let design = try #require(ModelTrainer(spec: spec).trainingDesign(logs: user.logs, today: today))
            let found = Dictionary(
                uniqueKeysWithValues: personal.associations(spec: spec).map {
                    ($0.input, $0.perUnit)
                })
            let truth = ["sleep_hours": user.sleep, "hrv": user.hrv, "steps_k": user.steps, "severity": user.today]
            for (input, value) in truth {
                let expected = try Self.sampling(
                    of: input, design: design, alpha: personal.severity.alpha, truth: truth,
                    population: population.artifact, spec: spec)
                let estimate = try #require(found[input])
                #expect(
                    abs(estimate - (value + expected.bias)) <= 4 * expected.deviation,
                    "\(user.id) \(input): \(abs(estimate - value - expected.bias) / expected.deviation) deviations")
                if input != "severity" {
                    servedSquares += (estimate - value) * (estimate - value) / (value * value)
                    let prior = try #require(populationFound[input])
                    populationSquares += (prior - value) * (prior - value) / (value * value)
                }
            }
            checked += 1
        }
        #expect(checked >= 20)
        #expect(servedSquares < populationSquares)
    }

    /// Persistence is a strong baseline on a 0–10 integer scale: a stable user's severity may barely move,
    /// so for a few users "tomorrow = today" itself wins the folds and serves (a tie, not a win). Pooled over
    /// the cohort's scored days the served models must win clearly, and individually at least 90% of users.
    @Test("users with 180 days or more are served models that beat tomorrow-equals-today on the folds")
    func beatsPersistence() throws {
        let trained = try Self.trainCohort().0.filter { Self.start.distance(to: $0.today) >= 180 }
        var modelError = 0.0
        var persistenceError = 0.0
        var winners = 0
        for (_, outcome, _) in trained {
            let metrics = try #require(outcome.metrics)
            modelError += metrics.modelMAE * Double(metrics.days)
            persistenceError += metrics.persistenceMAE * Double(metrics.days)
            if metrics.modelMAE < metrics.persistenceMAE { winners += 1 }
        }
        #expect(modelError < 0.75 * persistenceError)
        #expect(Double(winners) >= 0.9 * Double(trained.count))
    }

    /// The mean offset from the truth (the shrinkage bias) and the standard deviation of one input's served
    /// association, given the user's training design, the chosen penalty and the generating coefficients.
    static func sampling(
        of input: String, design: DesignMatrix, alpha: Double, truth: [String: Double], population: ModelArtifact,
        spec: ModelSpec
    ) throws -> (bias: Double, deviation: Double) {
        let features = spec.features
        let inputIndex = try #require(spec.inputs.firstIndex { $0.name == input })
        let standardization = Standardization(fitting: design.values)
        var z = Matrix(rows: 0, columns: 0)
        standardization.apply(design.values, into: &z)
        let p = features.count
        // g: the association as a function of standardized coefficients; d = w* − w_pop, standardized.
        var g = [Double](repeating: 0, count: p)
        var d = [Double](repeating: 0, count: p)
        for (j, feature) in features.enumerated() {
            let scale = standardization.scales[j]
            if feature.input == inputIndex {
                switch feature.kind {
                case .value, .baselineDeviation: g[j] = 1 / scale
                case .rollingMean(let days): g[j] = 1 / (Double(days) * scale)
                case .exponentialMean(let alpha): g[j] = alpha / scale
                default: break
                }
            }
            var generating = 0.0
            if case .value = feature.kind, let index = feature.input {
                generating = truth[spec.inputs[index].name] ?? 0
            }
            let prior = population.severity.coefficients[j] / population.standardization.scales[j]
            d[j] = (generating - prior) * scale
        }
        var shifted = Matrix(rows: 0, columns: 0)
        var scratch: [Double] = []
        LinearAlgebra.gram(z, into: &shifted, scratch: &scratch)
        for j in 0..<p { shifted[j, j] += alpha }
        var u = g
        try LinearAlgebra.solvePositiveDefinite(&shifted, &u)
        let bias = -alpha * zip(u, d).map { $0 * $1 }.reduce(0, +)
        var projected: [Double] = []
        LinearAlgebra.multiply(z, u, into: &projected)
        let deviation = noise * projected.map { $0 * $0 }.reduce(0, +).squareRoot()
        return (bias, deviation)
    }
}
