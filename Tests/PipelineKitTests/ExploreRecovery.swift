import Foundation
import Learning
import PipelineKit
import TestSupport
import Testing

@Test func exploreRecovery() async throws {
    let database = TestDatabase(now: Date(iso: "2026-11-29T12:00:00Z"))
    let pipeline = try await database.open()
    let generator = CohortGenerator(users: 40, days: 240, seed: 11, now: database.clock.now)
    var text = ""
    generator.generate { text += $0 }
    _ = try await pipeline.ingestJSONLines(from: .bytes(Array(text.utf8))) { _ in }
    let models = PersonalModels(pipeline: pipeline, jobs: 2)
    for truth in generator.truths() {
        let outcome = try await models.retrain(user: truth.id)
        let history = try await pipeline.store.modelHistory(scope: truth.id.rawValue, limit: 1)
        let artifact = try ModelArtifact(json: Data(history[0].json.utf8))
        let a = Dictionary(uniqueKeysWithValues: artifact.associations(spec: .symptomForecast).map { ($0.input, $0.perUnit) })
        print(String(format: "%@ %@ today %.3f/%.3f sleep %.3f/%.3f hrv %.4f/%.4f steps %.3f/%.3f  mae %.2f pers %.2f pop %.2f", truth.id.rawValue, outcome.promoted ? "P" : "-",
            a["severity"]!, truth.truth.todaySeverity, a["sleep_hours"]!, truth.truth.sleepHours, a["hrv"]!, truth.truth.hrv, a["steps_k"]!, truth.truth.thousandSteps,
            artifact.metrics?.modelMAE ?? -1, artifact.metrics?.persistenceMAE ?? -1, artifact.metrics?.populationMAE ?? -1))
    }
}
