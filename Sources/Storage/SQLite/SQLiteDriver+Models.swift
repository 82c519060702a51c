import Domain
import Foundation

extension SQLiteDriver {
    /// Saves an artifact to the scope's history and, if it is promoted, makes it the one served —
    /// both in one transaction, so a crash leaves either the previous model serving or the new one,
    /// never neither. Returns the new artifact's id.
    func save(_ model: StoredModel) throws(StorageError) -> Int64 {
        try write { () throws(StorageError) in try insertModel(model) }
    }

    /// `save(_:)`'s statements, inside the caller's transaction.
    func insertModel(_ model: StoredModel) throws(StorageError) -> Int64 {
        try connection.withStatement(
            """
            INSERT INTO model_artifacts (
                scope, spec_version, source, as_of_day, trained_at, promoted, reason, design_fingerprint, artifact)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            """
        ) { (insert) throws(StorageError) in
            try insert.bind(1, model.scope)
            try insert.bind(2, model.specVersion)
            try insert.bind(3, model.source)
            try insert.bind(4, model.asOfDay.description)
            try insert.bind(5, Store.milliseconds(model.trainedAt))
            try insert.bind(6, model.promoted)
            try insert.bind(7, model.reason)
            try insert.bind(8, model.designFingerprint)
            try insert.bind(9, model.json)
            try insert.run()
        }
        let id = connection.lastInsertedRowID
        if model.promoted {
            try connection.withStatement(
                """
                INSERT INTO serving_models (scope, artifact_id, promoted_at) VALUES (?1, ?2, ?3)
                ON CONFLICT (scope) DO UPDATE SET artifact_id = excluded.artifact_id, promoted_at = excluded.promoted_at
                """
            ) { (serve) throws(StorageError) in
                try serve.bind(1, model.scope)
                try serve.bind(2, id)
                try serve.bind(3, nowMilliseconds)
                try serve.run()
            }
        }
        try connection.withStatement(
            """
            DELETE FROM model_artifacts
            WHERE scope = ?1
                AND id NOT IN (SELECT id FROM model_artifacts WHERE scope = ?1 ORDER BY id DESC LIMIT ?2)
                AND id NOT IN (SELECT artifact_id FROM serving_models WHERE scope = ?1)
            """
        ) { (prune) throws(StorageError) in
            try prune.bind(1, model.scope)
            try prune.bind(2, Store.modelHistoryLimit)
            try prune.run()
        }
        return id
    }

    /// The artifact served for `scope`, or `nil` when none was ever promoted.
    func servingModel(scope: String) throws(StorageError) -> StoredModel? {
        try connection.withStatement(
            """
            SELECT a.id, a.scope, a.spec_version, a.source, a.as_of_day, a.trained_at, a.promoted, a.reason,
                a.design_fingerprint, a.artifact
            FROM serving_models s JOIN model_artifacts a ON a.id = s.artifact_id
            WHERE s.scope = ?1
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, scope)
            return try statement.step() ? decodeModel(statement) : nil
        }
    }

    /// The scope's artifacts, newest first, promoted or not.
    func modelHistory(scope: String, limit: Int) throws(StorageError) -> [StoredModel] {
        try connection.withStatement(
            """
            SELECT id, scope, spec_version, source, as_of_day, trained_at, promoted, reason, design_fingerprint, artifact
            FROM model_artifacts WHERE scope = ?1 ORDER BY id DESC LIMIT ?2
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, scope)
            try statement.bind(2, limit)
            var models: [StoredModel] = []
            while try statement.step() {
                if let model = decodeModel(statement) { models.append(model) }
            }
            return models
        }
    }

    private func decodeModel(_ statement: Statement) -> StoredModel? {
        guard let day = Day(statement.string(4)) else { return nil }
        var model = StoredModel(
            scope: statement.string(1), specVersion: statement.int(2), source: statement.string(3), asOfDay: day,
            trainedAt: Store.date(milliseconds: statement.int64(5)), promoted: statement.int(6) != 0,
            reason: statement.string(7), designFingerprint: statement.optionalString(8), json: statement.string(9))
        model.id = statement.int64(0)
        return model
    }
}
