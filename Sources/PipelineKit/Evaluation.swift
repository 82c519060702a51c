public import Domain
import Foundation
public import Learning

/// What `pipeline evaluate` measured: a walk forward over a database's last days, each day forecast only
/// from data before it, by the model the pipeline would have served then and by each baseline, on the same
/// forecasts. Kept as values so a report can print them (`PersonalModels.evaluate(days:)`).
public struct Evaluation: Sendable, Hashable {
    /// The walked days, in the population's calendar (each user walks the same number of their own days).
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
    /// Forecasts made before the user logged the day before (their entries of it hidden): the served model
    /// and the user's mean on those forecasts.
    public var servedBeforeYesterdayLogged: Double
    public var userMeanBeforeYesterdayLogged: Double
    /// Share of the forecasts served by each kind of model.
    public var servedShare: [ModelSource: Double]
    /// Share of users whose served kind on a day agrees with their served kind seven days later, over the
    /// pairs of days a week apart in the walk (`nil` when the walk is shorter than eight days).
    public var weekApartAgreement: Double?
    /// The served flare probabilities: Brier score, area under the ROC curve (`nil` without both classes),
    /// expected calibration error over ten equal-width bins, and the number of flare days.
    public var flareBrier: Double
    public var flareAUC: Double?
    public var flareCalibrationError: Double
    public var flareDays: Int

    /// One JSON object with every figure, for `--json` and reports.
    public var json: JSONObject {
        var object = JSONObject()
        object["first"] = .string(first.description)
        object["last"] = .string(last.description)
        object["days"] = .number(Double(days))
        object["users"] = .number(Double(users))
        object["forecasts"] = .number(Double(forecasts))
        var mae: JSONObject = [
            "served": .number(served), "persistence": .number(persistence), "userMean": .number(userMean),
            "ungatedPersonal": .number(ungatedPersonal),
        ]
        mae["population"] = population.map { .number($0) } ?? .null
        object["meanAbsoluteError"] = .object(mae)
        object["beforeYesterdayLogged"] = .object([
            "served": .number(servedBeforeYesterdayLogged), "userMean": .number(userMeanBeforeYesterdayLogged),
        ])
        var share = JSONObject()
        for kind in Evaluation.kinds { share[kind.rawValue] = .number(servedShare[kind] ?? 0) }
        object["servedShare"] = .object(share)
        object["weekApartAgreement"] = weekApartAgreement.map { .number($0) } ?? .null
        object["flare"] = .object([
            "brier": .number(flareBrier), "auc": flareAUC.map { .number($0) } ?? .null,
            "calibrationError": .number(flareCalibrationError), "flareDays": .number(Double(flareDays)),
        ])
        return object
    }

    static let kinds: [ModelSource] = [.personal, .population, .persistence, .recentMean]
}

/// Sums over scored forecasts.
private struct EvaluationTally: Sendable {
    var forecasts = 0
    var served = 0.0
    var persistence = 0.0
    var userMean = 0.0
    var population = 0.0
    var ungated = 0.0
    var early = 0
    var earlyServed = 0.0
    var earlyUserMean = 0.0
    var kinds: [ModelSource: Int] = [:]
    var flares: [(probability: Double, flare: Bool)] = []

    mutating func add(_ other: EvaluationTally) {
        forecasts += other.forecasts
        served += other.served
        persistence += other.persistence
        userMean += other.userMean
        population += other.population
        ungated += other.ungated
        early += other.early
        earlyServed += other.earlyServed
        earlyUserMean += other.earlyUserMean
        kinds.merge(other.kinds, uniquingKeysWith: +)
        flares += other.flares
    }
}

extension PersonalModels {
    /// Walks forward over the last `days` days: for each day, the population model is pooled and every user
    /// is retrained (with the previous day's choice as incumbent) exactly as `pipeline retrain` would on that
    /// day, from data before it only, and the day is forecast. Reads the database, writes nothing.
    public func evaluate(days: Int) async throws(PipelineError) -> Evaluation {
        precondition(days >= 1, "evaluate at least one day")
        let now = pipeline.clock.now
        let users = try await pipeline.users()
        var read: [[DailyLog]] = []
        for user in users {
            read.append(try await pipeline.dailyLogs(user: user.id, through: user.today(at: now).adding(days: -1)))
        }
        let logs = read
        let spec = self.spec
        let lastPopulationDay = populationDay(at: now)
        var incumbents = [ModelArtifact?](repeating: nil, count: users.count)
        var kindsByDay: [[ModelSource?]] = []
        var total = EvaluationTally()
        for step in 0..<days {
            if Task.isCancelled { throw .cancelled }
            let back = days - step
            var accumulator = PopulationAccumulator(spec: spec, today: lastPopulationDay.adding(days: -back))
            for (index, user) in users.enumerated() { accumulator.add(user: user.id, logs: logs[index]) }
            let population: PopulationModel
            do {
                population = try accumulator.model(trainedAt: now)
            } catch {
                throw .learning(error)
            }
            let previous = incumbents
            let results = await forEachUser(count: users.count) { index, trainer in
                let day = users[index].today(at: now).adding(days: -back)
                return Self.walk(
                    user: users[index].id, logs: logs[index], day: day, population: population,
                    incumbent: previous[index], trainer: &trainer, now: now)
            }
            var kinds = [ModelSource?](repeating: nil, count: users.count)
            for (index, result) in results.enumerated() {
                switch result {
                case .failure(let error): throw .learning(error)
                case .success(let (artifact, tally)):
                    incumbents[index] = artifact
                    kinds[index] = artifact.source
                    total.add(tally)
                }
            }
            kindsByDay.append(kinds)
        }
        return Self.summarize(
            total, kindsByDay: kindsByDay, first: lastPopulationDay.adding(days: -days),
            last: lastPopulationDay.adding(days: -1), days: days, users: users.count)
    }

    /// Runs `body` for user indexes 0..<count on `jobs` workers, each with its own trainer; results in order.
    private func forEachUser<Result: Sendable>(
        count: Int, _ body: @escaping @Sendable (Int, inout ModelTrainer) -> Result
    ) async -> [Result] {
        let spec = self.spec
        let workers = min(jobs, max(1, count))
        let parts = await withTaskGroup(of: [(Int, Result)].self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var trainer = ModelTrainer(spec: spec)
                    return stride(from: worker, to: count, by: workers).map { ($0, body($0, &trainer)) }
                }
            }
            var all: [(Int, Result)] = []
            for await part in group { all += part }
            return all
        }
        return parts.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Retrains one user as of `day` and scores the forecast for `day` against the baselines.
    private static func walk(
        user: UserID, logs: [DailyLog], day: Day, population: PopulationModel, incumbent: ModelArtifact?,
        trainer: inout ModelTrainer, now: Date
    ) -> Swift.Result<(ModelArtifact, EvaluationTally), LearningError> {
        let spec = trainer.spec
        let before = logs.filter { $0.day < day }
        let outcome: TrainingOutcome
        do {
            outcome = try trainer.train(
                user: user, logs: before, today: day, population: population, incumbent: incumbent, trainedAt: now)
        } catch {
            return .failure(error)
        }
        var tally = EvaluationTally()
        guard let target = logs.first(where: { $0.day == day })?.symptomSeverity.map(Double.init),
            let yesterday = before.last(where: { $0.day == day.adding(days: -1) })?.symptomSeverity.map(Double.init)
        else { return .success((outcome.artifact, tally)) }
        let range = spec.target.minimum...spec.target.maximum
        let builder = FeatureBuilder(spec: spec)
        let row = builder.predictionRow(logs: before, for: day)
        let served = outcome.artifact.predict(row: row, targetRange: range)
        let logged = before.compactMap(\.symptomSeverity)
        let mean = logged.isEmpty ? served.severity : Double(logged.reduce(0, +)) / Double(logged.count)
        tally.forecasts = 1
        tally.served = abs(served.severity - target)
        tally.persistence = abs(yesterday - target)
        tally.userMean = abs(mean - target)
        if let model = outcome.alternatives[.population] {
            tally.population = abs(model.predict(row: row, targetRange: range).severity - target)
        }
        let personal = outcome.alternatives[.personal] ?? outcome.artifact
        tally.ungated = abs(personal.predict(row: row, targetRange: range).severity - target)
        tally.kinds[outcome.artifact.source] = 1
        tally.flares = [(served.flare, target >= spec.flare.threshold)]
        // The same forecast made before the user logged yesterday: their entries of that day hidden.
        var early = before
        if let index = early.lastIndex(where: { $0.day == day.adding(days: -1) }) {
            early[index].symptomSeverity = nil
            early[index].mood = nil
            early[index].energy = nil
        }
        let earlyRow = builder.predictionRow(logs: early, for: day)
        tally.early = 1
        tally.earlyServed = abs(outcome.artifact.predict(row: earlyRow, targetRange: range).severity - target)
        tally.earlyUserMean = abs(mean - target)
        return .success((outcome.artifact, tally))
    }

    private static func summarize(
        _ tally: EvaluationTally, kindsByDay: [[ModelSource?]], first: Day, last: Day, days: Int, users: Int
    ) -> Evaluation {
        let count = Double(max(tally.forecasts, 1))
        var share: [ModelSource: Double] = [:]
        for (kind, forecasts) in tally.kinds { share[kind] = Double(forecasts) / count }
        var agree = 0
        var pairs = 0
        if kindsByDay.count > 7 {
            for step in 0..<(kindsByDay.count - 7) {
                for (a, b) in zip(kindsByDay[step], kindsByDay[step + 7]) {
                    guard let a, let b else { continue }
                    pairs += 1
                    if a == b { agree += 1 }
                }
            }
        }
        let flares = tally.flares
        let brier = flares.reduce(0.0) {
            $0 + ($1.probability - ($1.flare ? 1 : 0)) * ($1.probability - ($1.flare ? 1 : 0))
        }
        return Evaluation(
            first: first, last: last, days: days, users: users, forecasts: tally.forecasts,
            served: tally.served / count, persistence: tally.persistence / count, userMean: tally.userMean / count,
            population: tally.population > 0 ? tally.population / count : nil, ungatedPersonal: tally.ungated / count,
            servedBeforeYesterdayLogged: tally.earlyServed / Double(max(tally.early, 1)),
            userMeanBeforeYesterdayLogged: tally.earlyUserMean / Double(max(tally.early, 1)), servedShare: share,
            weekApartAgreement: pairs > 0 ? Double(agree) / Double(pairs) : nil,
            flareBrier: brier / Double(max(flares.count, 1)), flareAUC: Evaluation.areaUnderCurve(flares),
            flareCalibrationError: Evaluation.calibrationError(flares), flareDays: flares.filter(\.flare).count)
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
