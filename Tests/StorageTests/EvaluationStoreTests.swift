import Domain
import Foundation
import Storage
import TestSupport
import Testing

/// Walk-forward evaluations (`pipeline evaluate`), on each backend: kept verbatim, latest first, bounded.
@Suite("Evaluations")
struct EvaluationStoreTests {
    @Test("only the last ten evaluations are kept, the latest first", arguments: TestBackend.all)
    func boundedHistory(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        let start = Date(iso: "2026-03-01T00:00:00Z")
        for index in 0..<12 {
            let saved = StoredEvaluation(
                evaluatedAt: start + Double(index) * 3600, first: .literal("2026-02-01"), last: .literal("2026-02-28"),
                days: 28, json: "{\"run\":\(index)}")
            try await store.save(saved)
        }
        let kept = try await store.evaluations(limit: 100)
        #expect(kept.map(\.json) == (2..<12).reversed().map { "{\"run\":\($0)}" })
        #expect(try await store.latestEvaluation()?.json == "{\"run\":11}")
        #expect(kept.first?.evaluatedAt == start + 11 * 3600)
        #expect(kept.allSatisfy { $0.first == .literal("2026-02-01") && $0.last == .literal("2026-02-28") })
        // An evaluation that ran earlier but was saved later is not the latest.
        try await store.save(
            StoredEvaluation(
                evaluatedAt: start, first: .literal("2026-01-01"), last: .literal("2026-01-28"), days: 28,
                json: "{\"late\":true}"))
        #expect(try await store.latestEvaluation()?.json == "{\"run\":11}")
        #expect(try await store.evaluations(limit: 100).count == Store.evaluationHistoryLimit)
    }
}
