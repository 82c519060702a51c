import Domain
import Foundation

/// Walk-forward evaluations (see `Store+Evaluations.swift`): the insert and the pruning of older
/// runs in one transaction.
extension PostgreSQLDriver {
    func save(_ evaluation: StoredEvaluation) throws(StorageError) -> Int64 {
        try write { () throws(StorageError) in
            let id = try connection.query(
                """
                INSERT INTO evaluations (evaluated_at, first_day, last_day, days, result)
                VALUES ($1, $2, $3, $4, $5::json)
                RETURNING id
                """,
                [
                    .pg(Store.milliseconds(evaluation.evaluatedAt)), evaluation.first.description,
                    evaluation.last.description, .pg(evaluation.days), evaluation.json,
                ]
            ).int64(0, 0)
            try connection.query(
                """
                DELETE FROM evaluations
                WHERE id NOT IN (SELECT id FROM evaluations ORDER BY evaluated_at DESC, id DESC LIMIT $1)
                """, [.pg(Store.evaluationHistoryLimit)])
            return id
        }
    }

    func evaluations(limit: Int) throws(StorageError) -> [StoredEvaluation] {
        let rows = try connection.query(
            """
            SELECT id, evaluated_at, first_day, last_day, days, result::text
            FROM evaluations ORDER BY evaluated_at DESC, id DESC LIMIT $1
            """, [.pg(limit)])
        return (0..<rows.count).compactMap { row in
            guard let first = Day(rows.string(row, 2)), let last = Day(rows.string(row, 3)) else { return nil }
            var evaluation = StoredEvaluation(
                evaluatedAt: Store.date(milliseconds: rows.int64(row, 1)), first: first, last: last,
                days: rows.int(row, 4), json: rows.string(row, 5))
            evaluation.id = rows.int64(row, 0)
            return evaluation
        }
    }
}
