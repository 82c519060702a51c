public import Domain
public import Foundation
public import Learning

/// What `pipeline evaluate` measured: a walk forward over a database's last days, each day forecast only
/// from data before it, by the model the pipeline would have served then and by each baseline, on the same
/// forecasts. Kept as values so a report can print them (`PersonalModels.evaluate(days:)`), and stored
/// (`Pipeline.record(_:)`) so `pipeline report` shows the latest.
public struct Evaluation: Sendable, Hashable {
    /// When the evaluation ran, to the second (the pipeline's clock).
    public var evaluatedAt: Date
    /// The first and last walked day, each in its user's own calendar: every user walks `days` of their own
    /// days, so where users' zones are on different dates (most zones are a day ahead of the population's,
    /// UTC−12), the walk spans one date more than `days`, and every week of `periods` lies inside it.
    public var first: Day
    public var last: Day
    public var days: Int
    public var users: Int
    /// Forecasts scored: a user's day whose severity and the day before's were logged.
    public var forecasts: Int
    /// Mean absolute errors on the same forecasts.
    public var served: Double
    public var persistence: Double
    /// The mean of the user's logged severity before the day.
    public var userMean: Double
    /// The population model with the user's own imputation (`nil` when the cohort was too small to pool).
    public var population: Double?
    /// The personal model served whatever the selection said (the served model where none could be fitted).
    public var ungatedPersonal: Double
    /// Each kind the served model weighs, served alone as a retrain would serve it (a whole-number median), over
    /// the forecasts it could make.
    public var alternatives: [ModelSource: Double]
    /// Exponential smoothing of the user's logged severities before the day with α = 0.3, started from the
    /// first: the forecaster every forecaster tries first after the two above.
    public var smoothing: Double
    /// The share of forecasts whose served 80% interval held the day's severity, and the interval's mean width
    /// (upper − lower, in severity points); `nil` when no served model had an interval.
    public var intervalCoverage: Double?
    public var intervalWidth: Double?
    /// Forecasts made before the user logged the day before (their entries of it hidden): the served model
    /// and the user's mean on those forecasts.
    public var servedBeforeYesterdayLogged: Double
    public var userMeanBeforeYesterdayLogged: Double
    /// Share of the forecasts served by each kind of model.
    public var servedShare: [ModelSource: Double]
    /// Share of the combined forecasts whose largest weight was each candidate's.
    public var leadingShare: [CombinationCandidate: Double]
    /// Share of users whose served kind on a day agrees with their served kind seven days later, over the
    /// pairs of days a week apart in the walk (`nil` when the walk is shorter than eight days); a combination's
    /// kind is its candidate of largest weight.
    public var weekApartAgreement: Double?
    /// How far a combination's weights move in a week: half the sum of the weights' absolute changes (0: the
    /// same weights, 1: none in common), averaged over the pairs of combinations a week apart.
    public var weekApartWeightChange: Double?
    /// The served flare probabilities: Brier score, area under the ROC curve (`nil` without both classes),
    /// expected calibration error over ten equal-width bins, and the number of flare days.
    public var flareBrier: Double
    public var flareAUC: Double?
    public var flareCalibrationError: Double
    public var flareDays: Int
    /// The same errors by week (Monday to Sunday, of each user's own calendar), oldest first; a week
    /// without a scored forecast is left out.
    public var periods: [Period]
    /// Calendar days with at least one scored forecast (of any user): fewer than `days` when the database
    /// holds too little data for the walk asked for.
    public var scoredDays = 0

    /// The errors of the forecasts for the days of one week.
    public struct Period: Sendable, Hashable {
        /// The first and last walked day of the week that had a scored forecast.
        public var first: Day
        public var last: Day
        public var forecasts: Int
        /// Users with a scored forecast in the week.
        public var users: Int
        public var served: Double
        public var persistence: Double
        /// Exponential smoothing with α = 0.3 (`Evaluation.smoothing`); `nil` in evaluations recorded before it.
        public var smoothing: Double?
        /// Over the forecasts the population model could make (`nil` when it made none).
        public var population: Double?
        public var populationForecasts: Int

        public init(
            first: Day, last: Day, forecasts: Int, users: Int, served: Double, persistence: Double,
            smoothing: Double? = nil, population: Double?, populationForecasts: Int
        ) {
            self.first = first
            self.last = last
            self.forecasts = forecasts
            self.users = users
            self.served = served
            self.persistence = persistence
            self.smoothing = smoothing
            self.population = population
            self.populationForecasts = populationForecasts
        }

        var json: JSONObject {
            [
                "first": .string(first.description), "last": .string(last.description),
                "forecasts": .number(Double(forecasts)), "users": .number(Double(users)),
                "meanAbsoluteError": .object([
                    "served": .number(served), "persistence": .number(persistence),
                    "smoothing": smoothing.map { .number($0) } ?? .null,
                    "population": population.map { .number($0) } ?? .null,
                ]),
                "populationForecasts": .number(Double(populationForecasts)),
            ]
        }

        init?(json object: JSONObject) {
            guard let first = object["first"]?.dayValue, let last = object["last"]?.dayValue,
                let forecasts = object["forecasts"]?.intValue, let users = object["users"]?.intValue,
                let mae = object["meanAbsoluteError"]?.objectValue, let served = mae["served"]?.numberValue,
                let persistence = mae["persistence"]?.numberValue,
                let populationForecasts = object["populationForecasts"]?.intValue
            else { return nil }
            self.init(
                first: first, last: last, forecasts: forecasts, users: users, served: served,
                persistence: persistence, smoothing: mae["smoothing"]?.numberValue,
                population: mae["population"]?.numberValue,
                populationForecasts: populationForecasts)
        }
    }

    /// One JSON object with every figure, for `--json`, the database and reports.
    public var json: JSONObject {
        var object = JSONObject()
        object["evaluatedAt"] = .string(ISO8601Instant.string(from: evaluatedAt))
        object["first"] = .string(first.description)
        object["last"] = .string(last.description)
        object["days"] = .number(Double(days))
        object["users"] = .number(Double(users))
        object["forecasts"] = .number(Double(forecasts))
        var mae: JSONObject = [
            "served": .number(served), "persistence": .number(persistence), "userMean": .number(userMean),
            "ungatedPersonal": .number(ungatedPersonal), "smoothing": .number(smoothing),
        ]
        mae["population"] = population.map { .number($0) } ?? .null
        object["meanAbsoluteError"] = .object(mae)
        var alone = JSONObject()
        for kind in Evaluation.kinds where kind != .combined {
            alone[kind.rawValue] = alternatives[kind].map { .number($0) } ?? .null
        }
        object["alternatives"] = .object(alone)
        object["beforeYesterdayLogged"] = .object([
            "served": .number(servedBeforeYesterdayLogged), "userMean": .number(userMeanBeforeYesterdayLogged),
        ])
        var share = JSONObject()
        for kind in Evaluation.kinds { share[kind.rawValue] = .number(servedShare[kind] ?? 0) }
        object["servedShare"] = .object(share)
        var leading = JSONObject()
        for candidate in CombinationCandidate.allCases {
            leading[candidate.rawValue] = .number(leadingShare[candidate] ?? 0)
        }
        object["leadingShare"] = .object(leading)
        object["interval"] = .object([
            "coverage": intervalCoverage.map { .number($0) } ?? .null,
            "meanWidth": intervalWidth.map { .number($0) } ?? .null,
        ])
        object["weekApartAgreement"] = weekApartAgreement.map { .number($0) } ?? .null
        object["weekApartWeightChange"] = weekApartWeightChange.map { .number($0) } ?? .null
        object["flare"] = .object([
            "brier": .number(flareBrier), "auc": flareAUC.map { .number($0) } ?? .null,
            "calibrationError": .number(flareCalibrationError), "flareDays": .number(Double(flareDays)),
        ])
        object["periods"] = .array(periods.map { .object($0.json) })
        object["scoredDays"] = .number(Double(scoredDays))
        return object
    }

    public static let kinds: [ModelSource] = [.combined, .personal, .population, .smoothing, .persistence, .recentMean]
}

extension Evaluation {
    /// Reads the object `json` wrote; `nil` when a figure is missing or of the wrong kind. Members
    /// it does not know are ignored.
    public init?(json object: JSONObject) {
        guard let evaluatedAt = object["evaluatedAt"]?.stringValue.flatMap(ISO8601Instant.date(from:)),
            let first = object["first"]?.dayValue, let last = object["last"]?.dayValue,
            let days = object["days"]?.intValue, let users = object["users"]?.intValue,
            let forecasts = object["forecasts"]?.intValue,
            let mae = object["meanAbsoluteError"]?.objectValue, let served = mae["served"]?.numberValue,
            let persistence = mae["persistence"]?.numberValue, let userMean = mae["userMean"]?.numberValue,
            let ungated = mae["ungatedPersonal"]?.numberValue, let smoothing = mae["smoothing"]?.numberValue,
            let early = object["beforeYesterdayLogged"]?.objectValue,
            let earlyServed = early["served"]?.numberValue, let earlyUserMean = early["userMean"]?.numberValue,
            let shares = object["servedShare"]?.objectValue, let flare = object["flare"]?.objectValue,
            let brier = flare["brier"]?.numberValue, let calibrationError = flare["calibrationError"]?.numberValue,
            let flareDays = flare["flareDays"]?.intValue, case .array(let periodValues)? = object["periods"]
        else { return nil }
        var servedShare: [ModelSource: Double] = [:]
        for kind in Evaluation.kinds {
            if let share = shares[kind.rawValue]?.numberValue, share > 0 { servedShare[kind] = share }
        }
        var leadingShare: [CombinationCandidate: Double] = [:]
        for candidate in CombinationCandidate.allCases {
            if let share = object["leadingShare"]?.objectValue?[candidate.rawValue]?.numberValue, share > 0 {
                leadingShare[candidate] = share
            }
        }
        let interval = object["interval"]?.objectValue
        var alternatives: [ModelSource: Double] = [:]
        for kind in Evaluation.kinds {
            if let error = object["alternatives"]?.objectValue?[kind.rawValue]?.numberValue {
                alternatives[kind] = error
            }
        }
        var periods: [Period] = []
        for value in periodValues {
            guard let period = value.objectValue.flatMap(Period.init(json:)) else { return nil }
            periods.append(period)
        }
        self.init(
            evaluatedAt: evaluatedAt, first: first, last: last, days: days, users: users,
            forecasts: forecasts, served: served, persistence: persistence, userMean: userMean,
            population: mae["population"]?.numberValue, ungatedPersonal: ungated, alternatives: alternatives,
            smoothing: smoothing,
            intervalCoverage: interval?["coverage"]?.numberValue, intervalWidth: interval?["meanWidth"]?.numberValue,
            servedBeforeYesterdayLogged: earlyServed, userMeanBeforeYesterdayLogged: earlyUserMean,
            servedShare: servedShare, leadingShare: leadingShare,
            weekApartAgreement: object["weekApartAgreement"]?.numberValue,
            weekApartWeightChange: object["weekApartWeightChange"]?.numberValue,
            flareBrier: brier, flareAUC: flare["auc"]?.numberValue, flareCalibrationError: calibrationError,
            flareDays: flareDays, periods: periods, scoredDays: object["scoredDays"]?.intValue ?? 0)
    }
}

extension Evaluation {
    /// The probability that a random flare day gets a higher forecast than a random other day (ties count
    /// half): the Mann–Whitney form of the ROC area.
    public static func areaUnderCurve(_ forecasts: [(probability: Double, flare: Bool)]) -> Double? {
        let positives = forecasts.filter(\.flare).count
        let negatives = forecasts.count - positives
        guard positives > 0, negatives > 0 else { return nil }
        let sorted = forecasts.sorted { $0.probability < $1.probability }
        var rankSum = 0.0
        var start = 0
        while start < sorted.count {
            var end = start
            while end + 1 < sorted.count && sorted[end + 1].probability == sorted[start].probability { end += 1 }
            let rank = Double(start + end + 2) / 2
            for index in start...end where sorted[index].flare { rankSum += rank }
            start = end + 1
        }
        let p = Double(positives)
        return (rankSum - p * (p + 1) / 2) / (p * Double(negatives))
    }

    /// Expected calibration error: over ten equal-width probability bins, the forecast-weighted mean of
    /// |mean forecast − observed flare share|.
    public static func calibrationError(_ forecasts: [(probability: Double, flare: Bool)]) -> Double {
        guard !forecasts.isEmpty else { return 0 }
        var sums = [Double](repeating: 0, count: 10)
        var hits = [Double](repeating: 0, count: 10)
        var counts = [Double](repeating: 0, count: 10)
        for forecast in forecasts {
            let bin = min(9, Int(forecast.probability * 10))
            sums[bin] += forecast.probability
            hits[bin] += forecast.flare ? 1 : 0
            counts[bin] += 1
        }
        var error = 0.0
        for bin in 0..<10 where counts[bin] > 0 { error += abs(sums[bin] - hits[bin]) }
        return error / Double(forecasts.count)
    }
}
