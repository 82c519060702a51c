internal import Domain
import Foundation
import Storage

/// Walk-forward evaluations kept in the database, so `pipeline report` shows the figures of the
/// latest `pipeline evaluate` without walking again.
extension Pipeline {
    /// Stores `evaluation` (its `json` document) as the latest; the database keeps the last
    /// `Store.evaluationHistoryLimit`.
    public func record(_ evaluation: Evaluation) async throws(PipelineError) {
        let stored = StoredEvaluation(
            evaluatedAt: evaluation.evaluatedAt, first: evaluation.first, last: evaluation.last,
            days: evaluation.days, json: evaluation.json.jsonText)
        _ = try await storage { (store) throws(StorageError) in try await store.save(stored) }
    }

    /// The evaluation that ran last, or `nil` when none was recorded. A stored document this version
    /// cannot read is passed over with a warning, and the one before it is tried.
    public func latestEvaluation() async throws(PipelineError) -> Evaluation? {
        let stored = try await storage { (store) throws(StorageError) in try await store.evaluations() }
        for candidate in stored {
            if let evaluation = Self.decodeEvaluation(candidate.json) { return evaluation }
            log.log(.warning, "stored evaluation \(candidate.id) is unreadable; passing over it")
        }
        return nil
    }

    static func decodeEvaluation(_ text: String) -> Evaluation? {
        guard let object = (try? JSONParser().parse(text))?.objectValue else { return nil }
        return Evaluation(json: object)
    }
}
