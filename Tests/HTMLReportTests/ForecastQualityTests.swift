import Foundation
import HTMLReport
import Learning
import PipelineKit
import TestSupport
import Testing

/// The cohort's forecast-error figures from the served models' hold-out metrics.
@Suite("Forecast quality from hold-out metrics")
struct ForecastQualityTests {
    /// A served artifact of the fixture, with its metrics and source replaced.
    static func artifact(source: ModelSource, metrics: HoldoutMetrics?) async throws -> ModelArtifact {
        let fixture = try await ReportFixture.shared(.sqlite)
        let served = try #require(
            try await PersonalModels(pipeline: fixture.pipeline).servedModel(for: .literal("user-00001")))
        var artifact = served.artifact
        artifact.source = source
        artifact.metrics = metrics
        return artifact
    }

    /// Metrics as an artifact's JSON holds them (the type has no public initializer).
    static func metrics(last: String, days: Int, model: Double, persistence: Double, population: Double) throws
        -> HoldoutMetrics
    {
        let end = Day.literal(last)
        let json = """
            {"first":"\(end.adding(days: -13))","last":"\(end)","days":\(days),"modelMAE":\(model),
            "persistenceMAE":\(persistence),"populationMAE":\(population),"flareLogLoss":0.3,
            "populationFlareLogLoss":0.4,"flareDays":1}
            """
        return try JSONDecoder().decode(HoldoutMetrics.self, from: Data(json.utf8))
    }

    @Test("a period's errors are day-weighted means; a population-served user counts the population's error")
    func pooled() async throws {
        // Two personal models whose hold-outs end in the week of Monday 2026-11-23, and a user served
        // the population model whose latest personal fit scored the population on 10 days.
        let a = try await Self.artifact(
            source: .personal,
            metrics: try Self.metrics(last: "2026-11-28", days: 14, model: 1, persistence: 2, population: 1.5))
        let b = try await Self.artifact(
            source: .personal,
            metrics: try Self.metrics(last: "2026-11-24", days: 7, model: 4, persistence: 5, population: 3))
        let population = try await Self.artifact(source: .population, metrics: nil)
        let latest = try await Self.artifact(
            source: .personal,
            metrics: try Self.metrics(last: "2026-11-29", days: 10, model: 0.5, persistence: 3, population: 2))
        // A hold-out a week earlier is its own period.
        let old = try await Self.artifact(
            source: .personal,
            metrics: try Self.metrics(last: "2026-11-20", days: 14, model: 2, persistence: 2, population: 2))
        let quality = try await HoldoutForecastQuality().forecastQuality(of: [
            ServedModelSnapshot(user: .literal("a"), served: a, latestEvaluated: a),
            ServedModelSnapshot(user: .literal("b"), served: b, latestEvaluated: b),
            ServedModelSnapshot(user: .literal("c"), served: population, latestEvaluated: latest),
            ServedModelSnapshot(user: .literal("d"), served: old, latestEvaluated: old),
            ServedModelSnapshot(user: .literal("e"), served: nil, latestEvaluated: nil),
        ])
        #expect(quality.periods.count == 2)
        let earlier = try #require(quality.periods.first)
        #expect(earlier.users == 1 && earlier.days == 14)
        let week = try #require(quality.periods.last)
        #expect(week.users == 3 && week.days == 31)
        #expect(week.first == Day.literal("2026-11-11") && week.last == Day.literal("2026-11-29"))
        // (14·1 + 7·4 + 10·2) / 31, (14·2 + 7·5 + 10·3) / 31, (14·1.5 + 7·3 + 10·2) / 31, by hand.
        #expect(abs(week.servedMAE - 62.0 / 31) < 1e-12)
        #expect(abs(week.persistenceMAE - 93.0 / 31) < 1e-12)
        #expect(abs(week.populationMAE - 62.0 / 31) < 1e-12)
    }
}
