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

extension Store {
    /// Artifacts kept per scope besides the one being served; older ones are deleted when a new one
    /// is saved, so the history is bounded whatever the retrain cadence.
    public static let modelHistoryLimit = 30

    /// Saves an artifact to the scope's history and, if it is promoted, makes it the one served —
    /// both in one transaction, so a crash leaves either the previous model serving or the new one,
    /// never neither. Returns the new artifact's id.
    @discardableResult
    public func save(_ model: StoredModel) throws(StorageError) -> Int64 {
        try driver.save(model)
    }

    /// The artifact served for `scope`, or `nil` when none was ever promoted.
    public func servingModel(scope: String) throws(StorageError) -> StoredModel? {
        try driver.servingModel(scope: scope)
    }

    /// The scope's artifacts, newest first, promoted or not.
    public func modelHistory(scope: String, limit: Int = modelHistoryLimit) throws(StorageError) -> [StoredModel] {
        try driver.modelHistory(scope: scope, limit: limit)
    }
}
