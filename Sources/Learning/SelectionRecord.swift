public import Domain

/// What a retrain's model selection saw and decided, kept in the served artifact: every candidate's score on
/// the same rolling-origin folds, the winners and why they won. `pipeline model` prints it and a report can
/// read it back (`ModelArtifact.selection`).
///
/// Each fold covers `foldDays` consecutive target days of the evaluation window (the last `holdoutDays` before
/// the retrain's today) and is scored by models fitted only on the days before it. All candidates are scored
/// on the same rows; the incumbent (the model serving before this retrain) is re-scored as it is, on the same
/// rows, although it may have been fitted on some of them.
public struct SelectionRecord: Sendable, Hashable, Codable {
    /// The first and last scored target day, `nil` when nothing could be scored.
    public var first: Day?
    public var last: Day?
    /// Scored days (rows where the severity of the day and of the day before were logged).
    public var days: Int
    /// Folds that were scored.
    public var folds: Int
    /// Severity candidates in a fixed order: persistence, recentMean, population, personal, then incumbent.
    public var severity: [CandidateScore]
    /// Flare candidates: baseRate, population, personal, then incumbent.
    public var flare: [FlareCandidateScore]
    /// The kind of severity model served.
    public var severityWinner: ModelSource
    /// The flare head served: `baseRate`, `population` or `personal`.
    public var flareWinner: String
    /// The recalibration folded into the served flare head.
    public var calibration: Calibration
    /// Why the winners won, in words: metrics and rules, never a logged value.
    public var reason: String

    public struct CandidateScore: Sendable, Hashable, Codable {
        public var candidate: String
        /// Mean absolute error of the next-day severity, forecasts clamped to the target's range.
        public var meanAbsoluteError: Double
    }

    public struct FlareCandidateScore: Sendable, Hashable, Codable {
        public var candidate: String
        /// Mean negative log-likelihood (probabilities clipped to [1e-15, 1 − 1e-15]).
        public var logLoss: Double
        /// Mean squared error of the probability.
        public var brier: Double
    }

    /// Platt scaling of the flare logit η: `P(flare) = σ(intercept + slope·η)`, fitted on the winner's
    /// out-of-fold logits with a pull of `calibrationPseudoDays` toward the identity (0, 1).
    public struct Calibration: Sendable, Hashable, Codable {
        public var intercept: Double
        public var slope: Double

        public static let identity = Calibration(intercept: 0, slope: 1)
    }

    /// The score of a severity candidate, `nil` when it was not a candidate.
    public func meanAbsoluteError(of candidate: String) -> Double? {
        severity.first { $0.candidate == candidate }?.meanAbsoluteError
    }

    /// The record as the artifact's JSON holds it (sorted keys), for printing and reports.
    public var json: JSONValue {
        var object = JSONObject()
        object["calibration"] = .object([
            "intercept": .number(calibration.intercept), "slope": .number(calibration.slope),
        ])
        object["days"] = .number(Double(days))
        if let first { object["first"] = .string(first.description) }
        object["flare"] = .array(
            flare.map {
                .object([
                    "brier": .number($0.brier), "candidate": .string($0.candidate), "logLoss": .number($0.logLoss),
                ])
            })
        object["flareWinner"] = .string(flareWinner)
        object["folds"] = .number(Double(folds))
        if let last { object["last"] = .string(last.description) }
        object["reason"] = .string(reason)
        object["severity"] = .array(
            severity.map {
                .object(["candidate": .string($0.candidate), "meanAbsoluteError": .number($0.meanAbsoluteError)])
            })
        object["severityWinner"] = .string(severityWinner.rawValue)
        return .object(object)
    }
}
