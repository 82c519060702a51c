import Domain
import Foundation

/// Walk-forward evaluations (see `Store+Evaluations.swift`).
extension SQLiteDriver {
    func save(_ evaluation: StoredEvaluation) throws(StorageError) -> Int64 {
        try write { () throws(StorageError) in
            try connection.withStatement(
                """
                INSERT INTO evaluations (evaluated_at, first_day, last_day, days, result)
                VALUES (?1, ?2, ?3, ?4, ?5)
                """
            ) { (insert) throws(StorageError) in
                try insert.bind(1, Store.milliseconds(evaluation.evaluatedAt))
                try insert.bind(2, evaluation.first.description)
                try insert.bind(3, evaluation.last.description)
                try insert.bind(4, evaluation.days)
                try insert.bind(5, evaluation.json)
                try insert.run()
            }
            let id = connection.lastInsertedRowID
            try connection.withStatement(
                """
                DELETE FROM evaluations
                WHERE id NOT IN (SELECT id FROM evaluations ORDER BY evaluated_at DESC, id DESC LIMIT ?1)
                """
            ) { (prune) throws(StorageError) in
                try prune.bind(1, Store.evaluationHistoryLimit)
                try prune.run()
            }
            return id
        }
    }

    func evaluations(limit: Int) throws(StorageError) -> [StoredEvaluation] {
        try connection.withStatement(
            """
            SELECT id, evaluated_at, first_day, last_day, days, result
            FROM evaluations ORDER BY evaluated_at DESC, id DESC LIMIT ?1
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, limit)
            var evaluations: [StoredEvaluation] = []
            while try statement.step() {
                guard let first = Day(statement.string(2)), let last = Day(statement.string(3)) else { continue }
                var evaluation = StoredEvaluation(
                    evaluatedAt: Store.date(milliseconds: statement.int64(1)), first: first, last: last,
                    days: statement.int(4), json: statement.string(5))
                evaluation.id = statement.int64(0)
                evaluations.append(evaluation)
            }
            return evaluations
        }
    }
}
