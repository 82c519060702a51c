import Domain
import Foundation

/// Model artifacts (see `Store+Models.swift`): the insert, the promotion and the pruning of the
/// history in one transaction, so a crash leaves the previous model serving or the new one.
extension PostgreSQLDriver {
    func save(_ model: StoredModel) throws(StorageError) -> Int64 {
        try write { () throws(StorageError) in try insertModel(model) }
    }

    /// `save(_:)`'s work, inside the caller's transaction, in one statement: the insert, the
    /// promotion, and the pruning of the history to its newest `Store.modelHistoryLimit` artifacts
    /// (the new one among them) and the one serving. The statement's parts share one snapshot,
    /// which holds neither the new artifact nor the promotion: so the older rows keep their newest
    /// limit − 1, and the served artifact they protect is the current one only when the new one is
    /// not promoted. https://www.postgresql.org/docs/15/queries-with.html#QUERIES-WITH-MODIFYING
    func insertModel(_ model: StoredModel) throws(StorageError) -> Int64 {
        try connection.query(
            """
            WITH inserted AS (
                INSERT INTO model_artifacts (
                    scope, spec_version, source, as_of_day, trained_at, promoted, reason, design_fingerprint,
                    artifact)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::json)
                RETURNING id),
            promoted AS (
                INSERT INTO serving_models (scope, artifact_id, promoted_at)
                SELECT $1, id, $11 FROM inserted WHERE $6::boolean
                ON CONFLICT (scope) DO UPDATE SET artifact_id = excluded.artifact_id, promoted_at = excluded.promoted_at),
            pruned AS (
                DELETE FROM model_artifacts
                WHERE scope = $1
                    AND id NOT IN (SELECT id FROM model_artifacts WHERE scope = $1 ORDER BY id DESC LIMIT $10::integer - 1)
                    AND id NOT IN (SELECT artifact_id FROM serving_models WHERE scope = $1 AND NOT $6::boolean))
            SELECT id FROM inserted
            """,
            [
                model.scope, .pg(model.specVersion), model.source, model.asOfDay.description,
                .pg(Store.milliseconds(model.trainedAt)), .pg(model.promoted), model.reason,
                model.designFingerprint, model.json, .pg(Store.modelHistoryLimit), .pg(nowMilliseconds),
            ]
        ).int64(0, 0)
    }

    func servingModel(scope: String) throws(StorageError) -> StoredModel? {
        let rows = try connection.query(
            """
            SELECT a.id, a.scope, a.spec_version, a.source, a.as_of_day, a.trained_at, a.promoted, a.reason,
                a.design_fingerprint, a.artifact::text
            FROM serving_models s JOIN model_artifacts a ON a.id = s.artifact_id
            WHERE s.scope = $1
            """, [scope])
        return rows.count > 0 ? decodeModel(rows, 0) : nil
    }

    func modelHistory(scope: String, limit: Int) throws(StorageError) -> [StoredModel] {
        let rows = try connection.query(
            """
            SELECT id, scope, spec_version, source, as_of_day, trained_at, promoted, reason, design_fingerprint,
                artifact::text
            FROM model_artifacts WHERE scope = $1 ORDER BY id DESC LIMIT $2
            """, [scope, .pg(limit)])
        return (0..<rows.count).compactMap { decodeModel(rows, $0) }
    }

    private func decodeModel(_ rows: PostgreSQLRows, _ row: Int) -> StoredModel? {
        guard let day = Day(rows.string(row, 4)) else { return nil }
        var model = StoredModel(
            scope: rows.string(row, 1), specVersion: rows.int(row, 2), source: rows.string(row, 3), asOfDay: day,
            trainedAt: Store.date(milliseconds: rows.int64(row, 5)), promoted: rows.bool(row, 6),
            reason: rows.string(row, 7), designFingerprint: rows.optionalString(row, 8), json: rows.string(row, 9))
        model.id = rows.int64(row, 0)
        return model
    }
}
