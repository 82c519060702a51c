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
/// (`TaskRunWrite.save`, written by `finishTaskRuns` through `insertModel`).
extension Store {
    /// Artifacts kept per scope besides the one being served; older ones are deleted when a new one
    /// is saved, so the history is bounded whatever the retrain cadence.
    public static let modelHistoryLimit = 30

    /// Saves an artifact to the scope's history and, if it is promoted, makes it the one served —
    /// both in one transaction, so a crash leaves either the previous model serving or the new one,
    /// never neither. Returns the new artifact's id.
    @discardableResult
    public func save(_ model: StoredModel) throws(StorageError) -> Int64 {
        try write { () throws(StorageError) in try insertModel(model) }
    }

    /// `save(_:)`'s statements, in the open transaction: the insert, the promotion, and the pruning of the scope's
    /// history to its newest `modelHistoryLimit` artifacts and the one serving.
    func insertModel(_ model: StoredModel) throws(StorageError) -> Int64 {
        let id =
            try driver.row(
                .insertModel,
                [
                    model.scope, model.specVersion, model.source, model.asOfDay, model.trainedAt, model.promoted,
                    model.reason, model.designFingerprint, model.json,
                ]
            ) { $0.int64(0) } ?? 0
        if model.promoted { try driver.run(.serveModel, [model.scope, id, now]) }
        try driver.run(.pruneModelHistory, [model.scope, Store.modelHistoryLimit])
        return id
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
        try row(.servingModel, [scope], StoredModel.init(row:))
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
    /// $1 scope, $2 spec_version, $3 source, $4 as_of_day, $5 trained_at, $6 promoted, $7 reason,
    /// $8 design_fingerprint, $9 artifact: the new artifact's id.
    static let insertModel = SQL(
        """
        INSERT INTO model_artifacts (
            scope, spec_version, source, as_of_day, trained_at, promoted, reason, design_fingerprint, artifact)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
        RETURNING id
        """)
    /// $1 scope, $2 artifact id, $3 promoted_at.
    static let serveModel = SQL(
        """
        INSERT INTO serving_models (scope, artifact_id, promoted_at) VALUES ($1, $2, $3)
        ON CONFLICT (scope) DO UPDATE SET artifact_id = excluded.artifact_id, promoted_at = excluded.promoted_at
        """)
    /// $1 scope, $2 how many to keep besides the one serving.
    static let pruneModelHistory = SQL(
        """
        DELETE FROM model_artifacts
        WHERE scope = $1
            AND id NOT IN (SELECT id FROM model_artifacts WHERE scope = $1 ORDER BY id DESC LIMIT $2)
            AND id NOT IN (SELECT artifact_id FROM serving_models WHERE scope = $1)
        """)
    /// $1 scope: `StoredModel(row:)`'s columns.
    static let servingModel = SQL(
        """
        SELECT a.id, a.scope, a.spec_version, a.source, a.as_of_day, a.trained_at, a.promoted, a.reason,
            a.design_fingerprint, a.artifact
        FROM serving_models s JOIN model_artifacts a ON a.id = s.artifact_id
        WHERE s.scope = $1
        """)
    /// $1 scope, $2 limit: `StoredModel(row:)`'s columns, newest first.
    static let modelHistory = SQL(
        """
        SELECT id, scope, spec_version, source, as_of_day, trained_at, promoted, reason, design_fingerprint, artifact
        FROM model_artifacts WHERE scope = $1 ORDER BY id DESC LIMIT $2
        """)
}
