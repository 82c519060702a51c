public import Domain
import Foundation
public import Learning
public import PipelineKit

/// Where the cohort page's forecast-error figures come from. The report hands every user's served
/// model to the source. `HoldoutForecastQuality` summarizes their hold-out metrics;
/// `WalkForwardForecastQuality` shows an evaluation of `pipeline evaluate`; the report's default,
/// `LatestEvaluationForecastQuality`, takes the latest evaluation stored, else the hold-out metrics.
public protocol ForecastQualitySource: Sendable {
    func forecastQuality(of users: [ServedModelSnapshot]) async throws(ReportError) -> ForecastQuality
}

/// One user's served model, and their latest personal fit when a different model serves them.
public struct ServedModelSnapshot: Sendable {
    public var user: UserID
    public var served: ModelArtifact?
    /// The newest artifact of the user's history that has hold-out metrics.
    public var latestEvaluated: ModelArtifact?

    public init(user: UserID, served: ModelArtifact?, latestEvaluated: ModelArtifact?) {
        self.user = user
        self.served = served
        self.latestEvaluated = latestEvaluated
    }
}

/// The hold-out metrics of the served models (each model's last `holdoutDays` before its fit,
/// days it did not train on), pooled by the week its hold-out ended.
///
/// A user served a model of their own (a combination, or a personal model or baseline of an earlier
/// version) contributes that model's out-of-fold error; a user served the population model contributes the population's error on the hold-out of their latest personal
/// fit, which scored the population model on the same days. Each period's figures are means over
/// days, so a user with more scored days weighs more.
public struct HoldoutForecastQuality: ForecastQualitySource {
    /// Periods shown, newest last.
    public var periods: Int

    public init(periods: Int = 8) {
        self.periods = periods
    }

    public func forecastQuality(of users: [ServedModelSnapshot]) async throws(ReportError) -> ForecastQuality {
        ForecastQuality(method: "hold-out days of each served model", periods: Self.pool(users, keeping: periods))
    }

    static func pool(_ users: [ServedModelSnapshot], keeping limit: Int) -> [ForecastQuality.Period] {
        struct Sums {
            var first: Day
            var last: Day
            var days = 0
            var users = 0
            var served = 0.0
            var persistence = 0.0
            var population = 0.0
            var smoothing = 0.0
            var smoothingDays = 0
        }
        var byWeek: [Day: Sums] = [:]
        for user in users {
            let metrics: HoldoutMetrics
            let servedMAE: Double
            if let served = user.served, served.source != .population, let own = served.metrics {
                metrics = own
                servedMAE = own.modelMAE
            } else if user.served?.source == .population, let latest = user.latestEvaluated?.metrics {
                metrics = latest
                servedMAE = latest.populationMAE
            } else {
                continue
            }
            guard metrics.days > 0, [servedMAE, metrics.persistenceMAE, metrics.populationMAE].allSatisfy(\.isFinite)
            else { continue }
            let week = metrics.last.weekStart
            var sums = byWeek[week] ?? Sums(first: metrics.first, last: metrics.last)
            sums.first = min(sums.first, metrics.first)
            sums.last = max(sums.last, metrics.last)
            let days = Double(metrics.days)
            sums.days += metrics.days
            sums.users += 1
            sums.served += servedMAE * days
            sums.persistence += metrics.persistenceMAE * days
            sums.population += metrics.populationMAE * days
            if let smoothing = metrics.smoothingMAE, smoothing.isFinite {
                sums.smoothing += smoothing * days
                sums.smoothingDays += metrics.days
            }
            byWeek[week] = sums
        }
        return byWeek.keys.sorted().suffix(limit).map { week in
            let sums = byWeek[week]!
            let days = Double(sums.days)
            return ForecastQuality.Period(
                label: "\(sums.first) – \(sums.last)", first: sums.first, last: sums.last, days: sums.days,
                users: sums.users, servedMAE: sums.served / days, persistenceMAE: sums.persistence / days,
                populationMAE: sums.population / days,
                smoothingMAE: sums.smoothingDays == sums.days ? sums.smoothing / days : .nan)
        }
    }
}

/// The weekly figures of a walk-forward evaluation (`pipeline evaluate`): every user's forecasts of
/// each walked day, made from the days before it by the model the pipeline would have served then,
/// beside "tomorrow = today" and the population model on the same forecasts.
public struct WalkForwardForecastQuality: ForecastQualitySource {
    public var evaluation: Evaluation
    /// Periods shown, newest last.
    public var periods: Int

    public init(evaluation: Evaluation, periods: Int = 8) {
        self.evaluation = evaluation
        self.periods = periods
    }

    public func forecastQuality(of users: [ServedModelSnapshot]) async throws(ReportError) -> ForecastQuality {
        // A retrain after the evaluation serves models it did not walk with.
        let newestRetrain = users.flatMap { [$0.served?.trainedAt, $0.latestEvaluated?.trainedAt] }.compactMap { $0 }
            .max()
        let periods = evaluation.periods.suffix(periods).map { period in
            ForecastQuality.Period(
                label: "\(period.first) – \(period.last)", first: period.first, last: period.last,
                days: period.forecasts, users: period.users, servedMAE: period.served,
                persistenceMAE: period.persistence, populationMAE: period.population ?? .nan,
                smoothingMAE: period.smoothing ?? .nan)
        }
        return ForecastQuality(
            method: "walk-forward evaluation (pipeline evaluate) of the \(evaluation.days) days "
                + "\(evaluation.first) to \(evaluation.last)",
            periods: Array(periods), measuredAt: evaluation.evaluatedAt,
            retrainedSince: newestRetrain.flatMap { $0 > evaluation.evaluatedAt ? $0 : nil })
    }
}

/// What `pipeline report` shows by default: the latest evaluation `pipeline evaluate` recorded in the
/// database, read when the report is made, or `fallback` (the hold-out metrics) when none was.
public struct LatestEvaluationForecastQuality: ForecastQualitySource {
    public var pipeline: Pipeline
    public var fallback: any ForecastQualitySource

    public init(pipeline: Pipeline, fallback: any ForecastQualitySource = HoldoutForecastQuality()) {
        self.pipeline = pipeline
        self.fallback = fallback
    }

    public func forecastQuality(of users: [ServedModelSnapshot]) async throws(ReportError) -> ForecastQuality {
        let pipeline = self.pipeline
        let latest = try await ReportGenerator.read { () async throws(PipelineError) in
            try await pipeline.latestEvaluation()
        }
        guard let latest else { return try await fallback.forecastQuality(of: users) }
        return try await WalkForwardForecastQuality(evaluation: latest).forecastQuality(of: users)
    }
}
