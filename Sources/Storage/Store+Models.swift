public import Domain
public import Foundation

/// A model artifact as stored: the artifact's JSON and what the store needs to know about it. The
/// JSON's shape belongs to Learning; Storage keeps it verbatim.
public struct StoredModel: Sendable, Hashable {
    public var id: Int64
    /// A user id, or `StoredModel.populationScope`.
    public var scope: String
    public var specVersion: Int
    /// `personal` or `population`.
    public var source: String
    /// The day the fit treated as today.
    public var asOfDay: Day
    public var trainedAt: Date
    public var promoted: Bool
    public var reason: String
    public var designFingerprint: String?
    public var json: String

    /// The scope of the population model; no user id can be `*`.
    public static let populationScope = "*"

    public init(
        scope: String, specVersion: Int, source: String, asOfDay: Day, trainedAt: Date, promoted: Bool,
        reason: String, designFingerprint: String?, json: String
    ) {
        id = 0
        self.scope = scope
        self.specVersion = specVersion
        self.source = source
        self.asOfDay = asOfDay
        self.trainedAt = trainedAt
        self.promoted = promoted
        self.reason = reason
        self.designFingerprint = designFingerprint
        self.json = json
    }
}

/// Every write of a model artifact is here: `save(_:)`, and a retrain's model stored with the record of its run
/// (`TaskRunWrite.save`, written by `finishTaskRuns` through `insertModels`).
extension Store {
    /// Artifacts kept per scope besides the one being served; older ones are deleted when a new one
    /// is saved, so the history is bounded whatever the retrain cadence.
    public static let modelHistoryLimit = 30

    /// Saves an artifact to the scope's history and, if it is promoted, makes it the one served —
    /// both in one transaction, so a crash leaves either the previous model serving or the new one,
    /// never neither. Returns the new artifact's id.
    @discardableResult
    public func save(_ model: StoredModel) throws(StorageError) -> Int64 {
        try write { () throws(StorageError) in try insertModels([model])[0] }
    }

    /// `save(_:)` for several artifacts, in the open transaction, one statement for each step: the inserts, in
    /// order; the promotions (of a scope promoted twice, the later); the pruning of each scope's history to its
    /// newest `modelHistoryLimit` artifacts and the one serving. The new ids, in order.
    @discardableResult
    func insertModels(_ models: [StoredModel]) throws(StorageError) -> [Int64] {
        guard !models.isEmpty else { return [] }
        let rows = models.map { model -> [SQLValue] in
            [
                .text(model.scope), .integer(Int64(model.specVersion)), .text(model.source), model.asOfDay.sqlValue,
                model.trainedAt.sqlValue, .boolean(model.promoted), .text(model.reason),
                model.designFingerprint.sqlValue, .text(model.json),
            ]
        }
        // Identities are handed out in the order the rows are inserted, so the ids sorted are in `models`' order.
        let ids = try driver.rows(.insertModels, [SQLValue.rows(rows)]) { $0.int64(0) }.sorted()
        precondition(ids.count == models.count, "an artifact inserted without its id")
        var served: [String: Int64] = [:]
        for (model, id) in zip(models, ids) where model.promoted { served[model.scope] = id }
        if !served.isEmpty {
            let rows = served.sorted { $0.key < $1.key }.map { [SQLValue.text($0.key), .integer($0.value)] }
            try driver.run(.serveModels, [SQLValue.rows(rows), now])
        }
        let scopes = Array(Set(models.map(\.scope))).sorted()
        try driver.run(.pruneModelHistories, [SQLValue.texts(scopes), Store.modelHistoryLimit])
        return ids
    }

    /// The artifact served for `scope`, or `nil` when none was ever promoted.
    public func servingModel(scope: String) throws(StorageError) -> StoredModel? {
        try driver.servingModel(scope: scope)
    }

    /// The scope's artifacts, newest first, promoted or not.
    public func modelHistory(scope: String, limit: Int = modelHistoryLimit) throws(StorageError) -> [StoredModel] {
        try driver.rows(.modelHistory, [scope, limit], StoredModel.init(row:))
    }
}

extension StorageDriver {
    /// `Store.servingModel(scope:)`, on a store's or a reader's connection.
    func servingModel(scope: String) throws(StorageError) -> StoredModel? {
        try servingModels(scopes: [scope])[scope]
    }

    /// The artifacts served for those of `scopes` that have one, by scope, in one query.
    func servingModels(scopes: [String]) throws(StorageError) -> [String: StoredModel] {
        let models = try rows(.servingModelsOfScopes, [SQLValue.texts(scopes)], StoredModel.init(row:))
        return Dictionary(models.map { ($0.scope, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

extension StoredModel {
    /// A row of `id, scope, spec_version, source, as_of_day, trained_at, promoted, reason, design_fingerprint,
    /// artifact`.
    init?(row: any RowReader) {
        guard let day = Day(row.string(4)) else { return nil }
        self.init(
            scope: row.string(1), specVersion: row.int(2), source: row.string(3), asOfDay: day,
            trainedAt: row.date(5), promoted: row.bool(6), reason: row.string(7),
            designFingerprint: row.optionalString(8), json: row.string(9))
        id = row.int64(0)
    }
}

extension SQL {
    /// $1 rows of (scope, spec_version, source, as_of_day, trained_at, promoted, reason, design_fingerprint,
    /// artifact): each inserted, in order; the new artifacts' ids.
    static let insertModels = SQL(
        sqlite: """
            INSERT INTO model_artifacts (
                scope, spec_version, source, as_of_day, trained_at, promoted, reason, design_fingerprint, artifact)
            SELECT s.value ->> 0, s.value ->> 1, s.value ->> 2, s.value ->> 3, s.value ->> 4, s.value ->> 5,
                s.value ->> 6, s.value ->> 7, s.value ->> 8
            FROM json_each($1) AS s ORDER BY s.key
            RETURNING id
            """,
        postgresql: """
            INSERT INTO model_artifacts (
                scope, spec_version, source, as_of_day, trained_at, promoted, reason, design_fingerprint, artifact)
            SELECT s.e ->> 0, (s.e ->> 1)::integer, s.e ->> 2, s.e ->> 3, (s.e ->> 4)::bigint, (s.e ->> 5)::boolean,
                s.e ->> 6, s.e ->> 7, (s.e ->> 8)::json
            FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS s (e, position) ORDER BY s.position
            RETURNING id
            """)
    /// $1 rows of (scope, artifact id), one per scope, $2 promoted_at.
    static let serveModels = SQL(
        """
        INSERT INTO serving_models (scope, artifact_id, promoted_at)
        SELECT s.value ->> 0, (s.value ->> 1)::bigint, $2::bigint
        FROM json_array_elements($1::json) AS s (value) WHERE true
        ON CONFLICT (scope) DO UPDATE SET artifact_id = excluded.artifact_id, promoted_at = excluded.promoted_at
        """)
    /// $1 scopes (a list), $2 how many to keep of each besides the one serving.
    static let pruneModelHistories = SQL(
        sqlite: """
            DELETE FROM model_artifacts
            WHERE id IN (
                SELECT id FROM (
                    SELECT id, row_number() OVER (PARTITION BY scope ORDER BY id DESC) AS newer
                    FROM model_artifacts WHERE scope IN (SELECT value FROM json_each($1))) AS ranked
                WHERE newer > $2)
                AND id NOT IN (SELECT artifact_id FROM serving_models WHERE scope IN (SELECT value FROM json_each($1)))
            """,
        // Each scope's history from its index, newest first, past the ones kept: a form no plan reads the table
        // whole for, as one cached while the table was small did with the form above.
        postgresql: """
            DELETE FROM model_artifacts
            WHERE id = ANY(ARRAY(
                SELECT old.id FROM unnest($1::text[]) AS s (scope)
                CROSS JOIN LATERAL (
                    SELECT id FROM model_artifacts WHERE scope = s.scope ORDER BY scope, id DESC OFFSET $2) AS old
                WHERE old.id NOT IN (SELECT artifact_id FROM serving_models WHERE scope = s.scope)))
            """)
    /// $1 scopes (a list): `StoredModel(row:)`'s columns, one row per scope served.
    static let servingModelsOfScopes = SQL(
        """
        SELECT a.id, a.scope, a.spec_version, a.source, a.as_of_day, a.trained_at, a.promoted, a.reason,
            a.design_fingerprint, a.artifact
        FROM serving_models s JOIN model_artifacts a ON a.id = s.artifact_id
        WHERE s.scope = ANY($1::text[])
        """)
    /// $1 scope, $2 limit: `StoredModel(row:)`'s columns, newest first.
    static let modelHistory = SQL(
        """
        SELECT id, scope, spec_version, source, as_of_day, trained_at, promoted, reason, design_fingerprint, artifact
        FROM model_artifacts WHERE scope = $1 ORDER BY id DESC LIMIT $2
        """)
}
