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
        return try write { () throws(StorageError) in
            let id =
                try driver.row(
                    .insertEvaluation,
                    [evaluation.evaluatedAt, evaluation.first, evaluation.last, evaluation.days, evaluation.json]
                ) { $0.int64(0) } ?? 0
            try driver.run(.pruneEvaluations, [Store.evaluationHistoryLimit])
            return id
        }
    }

    /// Stored evaluations, the latest first (by when they ran, then by id).
    public func evaluations(limit: Int = evaluationHistoryLimit) throws(StorageError) -> [StoredEvaluation] {
        try driver.rows(.evaluations, [limit]) { row in
            guard let first = Day(row.string(2)), let last = Day(row.string(3)) else { return nil }
            var evaluation = StoredEvaluation(
                evaluatedAt: row.date(1), first: first, last: last, days: row.int(4), json: row.string(5))
            evaluation.id = row.int64(0)
            return evaluation
        }
    }

    /// The evaluation that ran last, or `nil` when `pipeline evaluate` never ran on this database.
    public func latestEvaluation() throws(StorageError) -> StoredEvaluation? {
        try evaluations(limit: 1).first
    }
}

extension SQL {
    /// $1 evaluated_at, $2 first_day, $3 last_day, $4 days, $5 result: the new evaluation's id.
    static let insertEvaluation = SQL(
        """
        INSERT INTO evaluations (evaluated_at, first_day, last_day, days, result) VALUES ($1, $2, $3, $4, $5)
        RETURNING id
        """)
    /// $1 how many to keep.
    static let pruneEvaluations = SQL(
        """
        DELETE FROM evaluations
        WHERE id NOT IN (SELECT id FROM evaluations ORDER BY evaluated_at DESC, id DESC LIMIT $1)
        """)
    /// $1 limit: the latest evaluations.
    static let evaluations = SQL(
        """
        SELECT id, evaluated_at, first_day, last_day, days, result
        FROM evaluations ORDER BY evaluated_at DESC, id DESC LIMIT $1
        """)
}
