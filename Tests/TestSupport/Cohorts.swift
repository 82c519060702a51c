public import Domain
import Foundation
import Ingestion
public import PipelineKit

extension TestDatabase {
    /// Opens the database with the users `ids` created (UTC, settings at their defaults): where the scheduler's
    /// tests start.
    public func open(users ids: [String]) async throws -> Pipeline {
        let pipeline = try await open()
        if !ids.isEmpty { try await pipeline.ingest(ids.map { .user(UserUpdate(id: .literal($0))) }) }
        return pipeline
    }

    /// Opens the database with `generator`'s cohort (`pipeline generate`) ingested in this process; a line the
    /// ingestion rejects is an error, as the generator writes none.
    public func open(ingesting generator: CohortGenerator) async throws -> Pipeline {
        let pipeline = try await open()
        let report = try await pipeline.ingestJSONLines(from: .bytes(Array(generator.jsonLines.utf8))) { _ in }
        guard report.rejected == 0 else { throw CohortError.rejected(report.rejected) }
        return pipeline
    }
}

extension CohortGenerator {
    /// The cohort as `pipeline generate` prints it: JSON Lines, users first.
    public var jsonLines: String {
        var text = ""
        generate { text += $0 }
        return text
    }
}

/// A generated cohort the ingestion did not take whole.
public enum CohortError: Error, CustomStringConvertible {
    case rejected(Int)

    public var description: String {
        switch self {
        case .rejected(let count): "the ingestion rejected \(count) lines of a generated cohort"
        }
    }
}

/// The tests' personal model: it decides at once, as configured, counts its calls, and has an insight (or none)
/// for everyone. The scheduler's and the tasks' tests use it, so that they are about the schedule, not the fits.
public final class FakeModelService: PersonalModelService, Sendable {
    public let promoted: Bool
    public let reason: String
    public let insightText: String?
    private let calls = Locked<(retrains: [UserID], insights: [UserID])>(([], []))
    /// Set to make every retrain fail with it.
    public let failure = Locked<PipelineError?>(nil)

    public init(
        promoted: Bool = true, reason: String = "promoted: beats persistence and the population model on the hold-out",
        insight: String? = "On days after you slept longer, your symptoms were milder."
    ) {
        self.promoted = promoted
        self.reason = reason
        insightText = insight
    }

    public func retrain(user: UserID) async throws(PipelineError) -> RetrainOutcome {
        calls.withLock { $0.retrains.append(user) }
        if let failure = failure.withLock({ $0 }) { throw failure }
        return RetrainOutcome(promoted: promoted, reason: reason)
    }

    public func insight(user: UserID) async throws(PipelineError) -> String? {
        calls.withLock { $0.insights.append(user) }
        return insightText
    }

    /// The users retrained and asked for an insight so far, in call order.
    public var retrains: [UserID] { calls.withLock { $0.retrains } }
    public var insights: [UserID] { calls.withLock { $0.insights } }
}
