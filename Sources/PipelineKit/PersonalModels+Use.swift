public import Domain
import Foundation
public import Learning
public import Storage

/// A model as a user is served it: the artifact and its stored record.
public struct ServedModel: Sendable {
    public var artifact: ModelArtifact
    public var stored: StoredModel
}

/// One association of a model, said as the weekly insight says it.
public struct DescribedAssociation: Sendable, Hashable {
    public var association: Association
    /// "after a night with an hour more sleep".
    public var phrase: String
    /// The change of the input the phrase speaks of, in the input's feature units.
    public var step: Double
    /// Change of next day's severity for that step, in points.
    public var effect: Double
    /// Effect over a typical day-to-day change of the input, for ordering.
    public var strength: Double

    /// The effect's size, one decimal.
    public var amount: String { String(format: "%.1f", abs(effect)) }
    public var direction: String { effect > 0 ? "higher" : "lower" }

    /// The whole sentence: "After a night with an hour more sleep, your symptom severity the next day
    /// tends to be about 0.4 points lower."
    public var sentence: String {
        phrase.prefix(1).uppercased() + phrase.dropFirst()
            + ", your symptom severity the next day tends to be about \(amount) points \(direction)."
    }
}

/// The exact training matrix of a user's last fit.
public struct FitDesign: Sendable {
    public var design: DesignMatrix
    public var stored: StoredModel
    /// `false` when the user's logs changed after the fit: the matrix is what the same fit would use
    /// now, not byte for byte what it used then.
    public var dataUnchanged: Bool
}

extension PersonalModels {
    /// The model served to the user: the artifact their last retrain selected, else (never retrained) the
    /// stored population model; `nil` when nothing was ever trained.
    public func servedModel(for id: UserID) async throws(PipelineError) -> ServedModel? {
        for scope in [id.rawValue, StoredModel.populationScope] {
            guard
                let stored = try await pipeline.storage({ (store) throws(StorageError) in
                    try await store.servingModel(scope: scope)
                })
            else { continue }
            return ServedModel(artifact: try decode(stored), stored: stored)
        }
        return nil
    }

    /// The severity, its interval and the flare probability of `day` from the user's logs up to the day before,
    /// with the model they are served. Every log is read: the exponential means of the severity reach back to the
    /// first day logged, as they did in training.
    public func forecast(user id: UserID, for day: Day) async throws(PipelineError) -> ForecastPrediction {
        guard try await pipeline.user(id) != nil else { throw .unknownUser(id.rawValue) }
        guard let served = try await servedModel(for: id) else {
            throw .noModel("no model has been trained yet; retrain first")
        }
        let logs = try await pipeline.dailyLogs(user: id, through: day.adding(days: -1))
        do {
            var artifact = served.artifact
            if served.stored.scope == StoredModel.populationScope {
                // Not retrained yet: the population's coefficients, the user's own means.
                artifact = try PopulationModel(artifact: artifact, spec: spec).serving(user: id, logs: logs, today: day)
            }
            return try artifact.forecast(logs: logs, for: day, spec: spec)
        } catch {
            throw .learning(error)
        }
    }

    /// The design matrix and targets of the user's last fit (promoted or not), rebuilt from the logs
    /// it saw.
    public func lastFitDesign(user id: UserID) async throws(PipelineError) -> FitDesign {
        guard try await pipeline.user(id) != nil else { throw .unknownUser(id.rawValue) }
        let history = try await pipeline.storage { (store) throws(StorageError) in
            try await store.modelHistory(scope: id.rawValue, limit: 1)
        }
        guard let last = history.first else {
            throw .noModel("'\(id)' has not been trained yet; retrain them first")
        }
        let logs = try await pipeline.dailyLogs(user: id, through: last.asOfDay.adding(days: -1))
        guard let design = ModelTrainer(spec: spec).trainingDesign(logs: logs, today: last.asOfDay) else {
            throw .noModel(
                "the last retrain of '\(id)' had fewer than \(spec.training.minimumUsableDays) usable days, "
                    + "so no personal matrix was fitted"
            )
        }
        return FitDesign(
            design: design, stored: last, dataUnchanged: DesignFingerprint.matches(last.designFingerprint, logs))
    }

    /// One sentence about the strongest association in the model the user is served, for the weekly insight;
    /// `nil` while their own fitted model weighs less than `insightWeight` in it (or they are served the
    /// population model) or no association is clear.
    public func insight(user id: UserID) async throws(PipelineError) -> String? {
        guard let served = try await servedModel(for: id),
            (served.artifact.combination?.first { $0.candidate == .personal }?.weight ?? 0) >= Self.insightWeight
        else { return nil }
        return Self.insight(from: served.artifact, spec: spec)
    }

    /// The least weight of the user's personal model in their combination for the weekly insight to speak of a
    /// personal pattern: a quarter of what their forecasts follow.
    public static let insightWeight = 0.25

    /// The association whose effect over a typical day-to-day change of its input is largest, in words.
    /// Exposed for tests through `insight(user:)`.
    static func insight(from artifact: ModelArtifact, spec: ModelSpec) -> String? {
        guard let best = describedAssociations(from: artifact, spec: spec).first, abs(best.effect) >= 0.05 else {
            return nil
        }
        return "Your strongest personal pattern: \(best.phrase), your symptom severity the next day "
            + "tends to be about \(best.amount) points \(best.direction)."
    }

    /// The model's associations of the inputs a person can change (severity following severity is how
    /// symptoms work, not a personal pattern), strongest first, each in the words of the weekly insight.
    /// Strength is the effect over a typical day-to-day change of the input: its spread in the user's
    /// training rows.
    public static func describedAssociations(from artifact: ModelArtifact, spec: ModelSpec) -> [DescribedAssociation] {
        var described: [DescribedAssociation] = []
        for association in artifact.associations(spec: spec) where association.field != .symptomSeverity {
            guard let wording = wordings[association.field] else { continue }
            // The spread of the input's value feature (the feature named after the input).
            let column = spec.featureNames.firstIndex(of: association.input)
            let spread = column.map { artifact.standardization.scales[$0] } ?? 1
            described.append(
                DescribedAssociation(
                    association: association, phrase: wording.phrase, step: wording.step,
                    effect: association.perUnit * wording.step, strength: abs(association.perUnit * spread)))
        }
        // Stable for ties: spec order among equals, as the insight has always chosen the first.
        return described.enumerated().sorted { ($0.element.strength, -$0.offset) > ($1.element.strength, -$1.offset) }
            .map(\.element)
    }

    /// How each input's step is said, and the step in the input's feature units.
    private static let wordings: [Field: (phrase: String, step: Double)] = [
        .sleepDuration: ("after a night with an hour more sleep", 1),
        .hrv: ("after a day with 10 ms more heart-rate variability", 10),
        .stepCount: ("after a day with 1,000 more steps", 1),
        .restingHeartRate: ("after a day with a resting heart rate 5 beats higher", 5),
        .mood: ("after a day with mood one point better", 1),
        .energy: ("after a day with energy one point higher", 1),
    ]

    private func decode(_ stored: StoredModel) throws(PipelineError) -> ModelArtifact {
        do {
            return try ModelArtifact(json: Data(stored.json.utf8))
        } catch {
            throw .learning(error)
        }
    }
}
