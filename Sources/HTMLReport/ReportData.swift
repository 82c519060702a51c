public import Domain
public import Foundation
public import Learning

/// Everything the cohort page shows, read once from the database: values only, so rendering is a pure
/// function a test can call on data it made.
public struct CohortReport: Sendable {
    /// The report's clock reading.
    public var generatedAt: Date
    /// Where the data came from, without a password (`Store.location`).
    public var database: String
    /// One entry per user, in id order, with the name the report shows (a pseudonym under `--redact`).
    public var users: [UserSummary]
    /// Days of each user's window (`UserSummary.loggedDays` counts within it).
    public var windowDays: Int
    public var forecastQuality: ForecastQuality
    public var calibration: Calibration
    public var scheduler: SchedulerHealth
    public var redacted: Bool
}

/// A user as the cohort page lists them.
public struct UserSummary: Sendable, Hashable {
    /// The id shown, or its pseudonym.
    public var name: String
    /// The file of the user's page, relative to the report's folder.
    public var page: String
    public var servedModel: ServedModelKind
    /// Days logged in the report's window, which ends yesterday in the user's zone.
    public var loggedDays: Int
    public var lastDay: Day?
}

/// The kind of model a user is served, as `pipeline model` names it: a combination by the candidate it weighs
/// most, the population model (a user never retrained), or, for an artifact of an earlier version, the
/// personal model or a baseline ("tomorrow = today", the recent mean) named by its source.
public enum ServedModelKind: Sendable, Hashable, Comparable {
    case combined(leading: String)
    case personal
    case population
    case baseline(String)
    case none

    /// The kind of `artifact` (`nil`: nothing trained yet); `ownArtifact` is false when the user is served the
    /// population model because they were never retrained.
    public init(artifact: ModelArtifact?, ownArtifact: Bool) {
        guard let artifact else {
            self = .none
            return
        }
        guard ownArtifact else {
            self = .population
            return
        }
        switch artifact.source {
        case .combined:
            let leading = artifact.combination?.max { abs($0.weight) < abs($1.weight) }?.candidate
            self = .combined(leading: leading?.rawValue ?? "smoothing")
        case .personal: self = .personal
        case .population: self = .population
        case .persistence, .recentMean, .smoothing: self = .baseline(artifact.source.rawValue)
        }
    }

    public var label: String {
        switch self {
        case .combined(let leading): "combination, mostly \(leading)"
        case .personal: "personal"
        case .population: "population"
        case .baseline(let name): "baseline (\(name))"
        case .none: "not trained yet"
        }
    }
}

/// Forecast error of the served models beside the two references, over periods (the hold-out
/// windows of the served models today; `pipeline evaluate`'s walk-forward weeks when it exists).
public struct ForecastQuality: Sendable, Hashable {
    /// Where the figures come from, said on the page ("hold-out of each served model").
    public var method: String
    public var periods: [Period]
    /// When the figures were measured, for figures measured apart from the models' fits (a walk-forward
    /// evaluation); `nil` for the hold-out metrics, measured at each fit.
    public var measuredAt: Date?
    /// The newest retrain, when it came after `measuredAt`: the figures are of the models served before.
    public var retrainedSince: Date?

    public init(method: String, periods: [Period], measuredAt: Date? = nil, retrainedSince: Date? = nil) {
        self.method = method
        self.periods = periods
        self.measuredAt = measuredAt
        self.retrainedSince = retrainedSince
    }

    public struct Period: Sendable, Hashable {
        /// "2026-03-01 – 2026-03-14".
        public var label: String
        public var first: Day
        public var last: Day
        /// Scored days in the period, over all users.
        public var days: Int
        /// Users contributing.
        public var users: Int
        /// Mean absolute error of next-day severity, weighted by days.
        public var servedMAE: Double
        public var persistenceMAE: Double
        /// Not a number when the population model made no forecast in the period.
        public var populationMAE: Double
        /// Exponential smoothing of each user's severities; not a number where the figures predate it.
        public var smoothingMAE: Double

        public init(
            label: String, first: Day, last: Day, days: Int, users: Int, servedMAE: Double, persistenceMAE: Double,
            populationMAE: Double, smoothingMAE: Double = .nan
        ) {
            self.smoothingMAE = smoothingMAE
            self.label = label
            self.first = first
            self.last = last
            self.days = days
            self.users = users
            self.servedMAE = servedMAE
            self.persistenceMAE = persistenceMAE
            self.populationMAE = populationMAE
        }
    }
}

/// A reliability diagram of flare probabilities: predictions binned by probability, each bin's mean
/// prediction against how often a flare happened.
public struct Calibration: Sendable, Hashable {
    public var bins: [Bin]
    /// Predictions scored.
    public var count: Int
    /// Mean squared error of the probabilities (Brier score); `nil` without predictions.
    public var brierScore: Double?

    public struct Bin: Sendable, Hashable {
        public var lower: Double
        public var upper: Double
        public var count: Int
        public var meanPrediction: Double
        public var observedRate: Double
    }

    /// Bins `pairs` of (probability, flare happened) into `binCount` equal-width bins over 0…1;
    /// empty bins are left out.
    public init(pairs: [(probability: Double, flare: Bool)], binCount: Int = 10) {
        precondition(binCount > 0, "bin count")
        var counts = [Int](repeating: 0, count: binCount)
        var sums = [Double](repeating: 0, count: binCount)
        var flares = [Int](repeating: 0, count: binCount)
        var squared = 0.0
        for pair in pairs where pair.probability.isFinite {
            let p = min(max(pair.probability, 0), 1)
            let index = min(Int(p * Double(binCount)), binCount - 1)
            counts[index] += 1
            sums[index] += p
            if pair.flare { flares[index] += 1 }
            squared += (p - (pair.flare ? 1 : 0)) * (p - (pair.flare ? 1 : 0))
        }
        count = counts.reduce(0, +)
        brierScore = count > 0 ? squared / Double(count) : nil
        bins = (0..<binCount).compactMap { index in
            guard counts[index] > 0 else { return nil }
            return Bin(
                lower: Double(index) / Double(binCount), upper: Double(index + 1) / Double(binCount),
                count: counts[index], meanPrediction: sums[index] / Double(counts[index]),
                observedRate: Double(flares[index]) / Double(counts[index]))
        }
    }
}

/// The scheduler's health as the cohort page shows it.
public struct SchedulerHealth: Sendable, Hashable {
    /// The days charted, oldest first (UTC calendar days of the runs' start).
    public var days: [Day]
    /// Per task identifier, in the order the pipeline registers them: runs per day by outcome.
    public var tasks: [TaskRuns]
    /// Pending requests due for longer than their task's cadence (`pipeline status`'s overdue).
    public var overdue: Int
    /// Other pending requests that are due: the next launch takes them.
    public var dueNow: Int
    /// Pending requests not yet due.
    public var waiting: Int
    /// Requests a worker holds now.
    public var running: Int
    /// The most overdue request's delay, seconds.
    public var longestOverdue: TimeInterval?
    public var deadLetters: Int
    /// When the last launch began (the launch record; before there was one, the latest run's start).
    public var lastLaunch: Date?
    /// Whether `pipeline status --check` finds nothing to flag (`PipelineStatus.hasProblems`, which it reads).
    public var healthy: Bool
    /// Every diagnostic `pipeline status --check` flags, one line each (counts, where it lists each request).
    public var problems: [String]

    public struct TaskRuns: Sendable, Hashable {
        public var identifier: String
        /// Per day of `days`.
        public var succeeded: [Int]
        /// Failed or expired, per day.
        public var failed: [Int]
    }
}

/// Everything a user's page shows.
public struct UserReport: Sendable {
    public var name: String
    /// The user's zone; `nil` under `--redact` (with few users, a zone can point to a person).
    public var timeZone: String?
    /// The user's today when the report was made; the series end the day before.
    public var today: Day
    /// The days charted, oldest first (the last 180 through yesterday).
    public var days: [Day]
    /// One per day of `days`; `nil` where not logged.
    public var severity: [Double?]
    public var mood: [Double?]
    public var energy: [Double?]
    /// The served model's forecast for each day, from the days before it; `nil` where it cannot be
    /// scored (severity not logged that day or the day before).
    public var forecast: [Double?]
    /// The served 80% interval of each forecast, where the model has one.
    public var interval: [ClosedRange<Double>?]
    public var flareProbability: [Double?]
    /// The severity at or above which a day is a flare.
    public var flareThreshold: Double
    /// Days held out of the served model's fit (its forecasts there are out of sample).
    public var holdout: ClosedRange<Day>?
    /// Tomorrow's forecast, as `pipeline predict` makes it now.
    public var next: NextForecast?
    /// The served combination's weights, and every candidate's out-of-fold error at its retrain (empty for a
    /// user never retrained).
    public var combination: [CombinationWeight]
    public var candidates: [SelectionRecord.CandidateScore]
    /// Per metric field, per day of `days`: who wrote the value, `nil` when empty.
    public var sources: [(field: Field, perDay: [Source?])]
    public var servedModel: ServedModelKind
    public var servedTrainedAt: Date?
    /// The served model's strongest associations, strongest first.
    public var associations: [AssociationLine]
    public var history: [ModelHistoryEntry]
    /// The person's notes of the charted days, newest first; empty under `--redact`.
    public var notes: [(day: Day, text: String)]
}

/// The forecast for the day after the report's today.
public struct NextForecast: Sendable, Hashable {
    public var day: Day
    public var severity: Double
    public var interval: ClosedRange<Double>?
    public var flareProbability: Double
}

/// One association as the page says it.
public struct AssociationLine: Sendable, Hashable {
    public var sentence: String
    /// The input the association is of (`sleepHours`).
    public var input: String
    /// Change of next day's severity per unit of the input (per hour of sleep, per 1,000 steps).
    public var perUnit: Double
}

/// One fit in a user's model history.
public struct ModelHistoryEntry: Sendable, Hashable {
    public var trainedAt: Date
    public var asOfDay: Day
    /// What the fit serves, in `ServedModelKind`'s words ("combination, mostly smoothing").
    public var source: String
    public var promoted: Bool
    public var serving: Bool
    /// Why it was or was not promoted, with its hold-out figures, in the trainer's words.
    public var reason: String
}
