public import Domain
public import Foundation

/// A walk-forward evaluation as stored (`pipeline evaluate`): when it ran, the days it walked, and
/// its result as a JSON document. The document's shape belongs to PipelineKit; Storage keeps it
/// verbatim.
public struct StoredEvaluation: Sendable, Hashable {
    public var id: Int64
    public var evaluatedAt: Date
    public var first: Day
    public var last: Day
    public var days: Int
    public var json: String

    public init(evaluatedAt: Date, first: Day, last: Day, days: Int, json: String) {
        id = 0
        self.evaluatedAt = evaluatedAt
        self.first = first
        self.last = last
        self.days = days
        self.json = json
    }
}

extension Store {
    /// Evaluations kept; older ones are deleted when a new one is saved.
    public static let evaluationHistoryLimit = 10

    /// Saves an evaluation and deletes all but the newest `evaluationHistoryLimit`, in one
    /// transaction. Returns the new evaluation's id.
    @discardableResult
    public func save(_ evaluation: StoredEvaluation) throws(StorageError) -> Int64 {
        precondition(evaluation.days >= 1, "an evaluation walks at least one day")
        return try driver.save(evaluation)
    }

    /// Stored evaluations, the latest first (by when they ran, then by id).
    public func evaluations(limit: Int = evaluationHistoryLimit) throws(StorageError) -> [StoredEvaluation] {
        try driver.evaluations(limit: limit)
    }

    /// The evaluation that ran last, or `nil` when `pipeline evaluate` never ran on this database.
    public func latestEvaluation() throws(StorageError) -> StoredEvaluation? {
        try driver.evaluations(limit: 1).first
    }
}
