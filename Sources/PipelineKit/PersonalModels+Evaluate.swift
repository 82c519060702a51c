import Domain
import Foundation
import Learning

/// What a retrain served a user, as the week-apart agreement compares it: the kind, and a combination's weights.
struct ServedChoice: Sendable {
    var source: ModelSource
    var weights: [CombinationCandidate: Double]

    /// Combinations whose weights moved by at most this (half the sum of absolute changes) count as the same
    /// choice: a fifth of the forecast's weight moved from one kind to others.
    static let agreementDistance = 0.2

    init(_ artifact: ModelArtifact) {
        source = artifact.source
        weights = Dictionary(uniqueKeysWithValues: (artifact.combination ?? []).map { ($0.candidate, $0.weight) })
    }

    func weightDistance(to other: ServedChoice) -> Double? {
        guard source == .combined, other.source == .combined else { return nil }
        return CombinationCandidate.allCases.reduce(0.0) { $0 + abs((weights[$1] ?? 0) - (other.weights[$1] ?? 0)) } / 2
    }

    func agrees(with other: ServedChoice) -> Bool {
        guard source == other.source else { return false }
        return weightDistance(to: other).map { $0 <= Self.agreementDistance } ?? true
    }
}

/// Sums over scored forecasts.
private struct EvaluationTally: Sendable {
    var forecasts = 0
    var served = 0.0
    var persistence = 0.0
    var userMean = 0.0
    var population = 0.0
    var populationForecasts = 0
    var ungated = 0.0
    var smoothing = 0.0
    var intervals = 0
    var covered = 0
    var width = 0.0
    var early = 0
    var earlyServed = 0.0
    var earlyUserMean = 0.0
    var kinds: [ModelSource: Int] = [:]
    var alternatives: [ModelSource: (error: Double, forecasts: Int)] = [:]
    var leading: [CombinationCandidate: Int] = [:]
    var flares: [(probability: Double, flare: Bool)] = []

    mutating func add(_ other: EvaluationTally) {
        forecasts += other.forecasts
        served += other.served
        persistence += other.persistence
        userMean += other.userMean
        population += other.population
        populationForecasts += other.populationForecasts
        ungated += other.ungated
        smoothing += other.smoothing
        intervals += other.intervals
        covered += other.covered
        width += other.width
        early += other.early
        earlyServed += other.earlyServed
        earlyUserMean += other.earlyUserMean
        kinds.merge(other.kinds, uniquingKeysWith: +)
        leading.merge(other.leading, uniquingKeysWith: +)
        alternatives.merge(other.alternatives) { ($0.error + $1.error, $0.forecasts + $1.forecasts) }
        flares += other.flares
    }
}

/// Sums over one week's scored forecasts.
private struct WeekTally {
    var first: Day
    var last: Day
    var users: Set<Int> = []
    var tally = EvaluationTally()

    init(day: Day) {
        first = day
        last = day
    }

    mutating func add(_ forecast: EvaluationTally, day: Day, user: Int) {
        first = min(first, day)
        last = max(last, day)
        users.insert(user)
        tally.add(forecast)
    }

    var period: Evaluation.Period {
        let count = Double(max(tally.forecasts, 1))
        return Evaluation.Period(
            first: first, last: last, forecasts: tally.forecasts, users: users.count, served: tally.served / count,
            persistence: tally.persistence / count, smoothing: tally.smoothing / count,
            population: tally.populationForecasts > 0 ? tally.population / Double(tally.populationForecasts) : nil,
            populationForecasts: tally.populationForecasts)
    }
}

extension PersonalModels {
    /// Walks forward over the last `days` days: each day D is forecast at noon of D − 1, by the model a retrain on
    /// D − 1 serves — the population model pooled and every user retrained (with the previous day's model as
    /// incumbent) exactly as `pipeline retrain` would that day, from data before it — from the logs through D − 1,
    /// as `pipeline predict --for D` then sees them. A day counts when its severity and the day before's were
    /// logged. Reads the database, writes nothing (`Pipeline.record(_:)` stores the result).
    ///
    /// `progress`, when given, is called with the users' days walked so far and how many there are in all, from
    /// the workers' tasks (for a progress bar: it must return quickly).
    public func evaluate(days: Int, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil)
        async throws(PipelineError) -> Evaluation
    {
        precondition(days >= 1, "evaluate at least one day")
        return try await walk(days: days, requireYesterday: true, progress: progress) { today, _ in
            Set((1...days).map { today.adding(days: -$0) })
        }
    }

    /// `evaluate(days:)` over each user's last `loggedDays` days with a logged severity before today, however
    /// far apart: a day counts when the user logged a severity on it and on some day before it, and
    /// "tomorrow = today" is the last severity logged before it.
    public func evaluate(loggedDays: Int, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil)
        async throws(PipelineError) -> Evaluation
    {
        precondition(loggedDays >= 1, "evaluate at least one day")
        return try await walk(days: loggedDays, requireYesterday: false, progress: progress) { today, logs in
            Set(logs.filter { $0.day < today && $0.symptomSeverity != nil }.map(\.day).suffix(loggedDays))
        }
    }

    /// The walk: `scoredDays(today, logs)` gives each user's days to forecast; every day from the earliest of
    /// them on is walked, every user retrained on each (so each carries its incumbent as a retrain would), and a
    /// user's forecast scored on their days only.
    private func walk(
        days: Int, requireYesterday: Bool, progress: (@Sendable (Int, Int) -> Void)?,
        scoredDays: (Day, [DailyLog]) -> Set<Day>
    ) async throws(PipelineError) -> Evaluation {
        let now = pipeline.clock.now
        let users = try await pipeline.users()
        var read: [[DailyLog]] = []
        for user in users {
            read.append(try await pipeline.dailyLogs(user: user.id, through: user.today(at: now).adding(days: -1)))
        }
        let logs = read
        let spec = self.spec
        let todays = users.map { $0.today(at: now) }
        let scored = users.indices.map { scoredDays(todays[$0], logs[$0]) }
        let span = zip(scored, todays).map { set, today in set.map { $0.distance(to: today) }.max() ?? 0 }.max() ?? 0
        let lastPopulationDay = populationDay(at: now)
        let sample = Set(CohortCalibration.sample(users.map(\.id), spec: spec))
        var incumbents = [ModelArtifact?](repeating: nil, count: users.count)
        var kindsByDay: [[ServedChoice?]] = []
        var total = EvaluationTally()
        var weeks: [Day: WeekTally] = [:]
        let userDays = span * users.count
        let walked = Locked(0)
        var daysScored = Set<Day>()
        progress?(0, userDays)
        for back in stride(from: span, through: 1, by: -1) {
            if Task.isCancelled { throw .cancelled }
            // The retrain of the day before the forecast day.
            var accumulator = PopulationAccumulator(spec: spec, today: lastPopulationDay.adding(days: -back - 1))
            for (index, user) in users.enumerated() { accumulator.add(user: user.id, logs: logs[index]) }
            var population: PopulationModel
            do {
                population = try accumulator.model(trainedAt: now, threads: jobs)
            } catch {
                throw .learning(error)
            }
            let pooled = population
            let calibrated = await forEachUser(count: users.count) { index, trainer -> CohortCalibration? in
                guard sample.contains(users[index].id) else { return nil }
                let today = todays[index].adding(days: -back - 1)
                var calibration = CohortCalibration(spec: spec)
                let design = FeatureBuilder(spec: spec).designMatrix(logs: logs[index], today: today)
                try? calibration.add(
                    user: users[index].id, design: design, today: today, population: pooled, trainer: &trainer)
                return calibration
            }
            var calibration = CohortCalibration(spec: spec)
            for part in calibrated { if let part { calibration.merge(part) } }
            population = population.with(calibration.settings())
            let previous = incumbents
            let cohortPopulation = population
            let results = await forEachUser(count: users.count) { index, trainer in
                let day = todays[index].adding(days: -back)
                let result = Self.walk(
                    user: users[index].id, logs: logs[index], day: day, scored: scored[index].contains(day),
                    requireYesterday: requireYesterday, population: cohortPopulation, incumbent: previous[index],
                    trainer: &trainer, now: now)
                if let progress {
                    progress(
                        walked.withLock { count in
                            count += 1
                            return count
                        }, userDays)
                }
                return result
            }
            var kinds = [ServedChoice?](repeating: nil, count: users.count)
            for (index, result) in results.enumerated() {
                switch result {
                case .failure(let error): throw .learning(error)
                case .success(let (artifact, tally)):
                    incumbents[index] = artifact
                    kinds[index] = ServedChoice(artifact)
                    total.add(tally)
                    guard tally.forecasts > 0 else { continue }
                    let day = todays[index].adding(days: -back)
                    daysScored.insert(day)
                    weeks[day.weekStart, default: WeekTally(day: day)].add(tally, day: day, user: index)
                }
            }
            kindsByDay.append(kinds)
        }
        let firstScored = zip(scored, todays).compactMap { $0.min() ?? $1 }.min() ?? lastPopulationDay
        var evaluation = Self.summarize(
            total, kindsByDay: kindsByDay, first: firstScored,
            last: (todays.max() ?? lastPopulationDay).adding(days: -1), days: days, users: users.count)
        evaluation.evaluatedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        evaluation.periods = weeks.keys.sorted().map { weeks[$0]!.period }
        evaluation.scoredDays = daysScored.count
        return evaluation
    }

    static func leadingCandidate(_ artifact: ModelArtifact) -> CombinationCandidate? {
        artifact.combination?.max { abs($0.weight) < abs($1.weight) }?.candidate
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

    /// Retrains one user as of the day before `day` and, when `scored`, scores the forecast for `day` made from
    /// the logs before it against the baselines. With `requireYesterday`, a day counts only when the day before
    /// was logged and "tomorrow = today" is its severity; otherwise it is the last severity logged before.
    private static func walk(
        user: UserID, logs: [DailyLog], day: Day, scored: Bool, requireYesterday: Bool, population: PopulationModel,
        incumbent: ModelArtifact?, trainer: inout ModelTrainer, now: Date
    ) -> Swift.Result<(ModelArtifact, EvaluationTally), LearningError> {
        let spec = trainer.spec
        let before = logs.filter { $0.day < day }
        let outcome: TrainingOutcome
        do {
            outcome = try trainer.train(
                user: user, logs: before, today: day.adding(days: -1), population: population, incumbent: incumbent,
                trainedAt: now)
        } catch {
            return .failure(error)
        }
        var tally = EvaluationTally()
        let severities = before.compactMap { log in log.symptomSeverity.map { (log.day, Double($0)) } }
        guard scored, let target = logs.first(where: { $0.day == day })?.symptomSeverity.map(Double.init),
            let last = severities.last,
            !requireYesterday || last.0 == day.adding(days: -1)
        else { return .success((outcome.artifact, tally)) }
        let range = spec.target.minimum...spec.target.maximum
        let builder = FeatureBuilder(spec: spec)
        let row = builder.predictionRow(logs: before, for: day)
        let served = outcome.artifact.predict(row: row, targetRange: range)
        let mean = severities.reduce(0) { $0 + $1.1 } / Double(severities.count)
        tally.forecasts = 1
        tally.served = abs(served.severity - target)
        tally.persistence = abs(last.1 - target)
        tally.userMean = abs(mean - target)
        tally.smoothing = abs(Self.exponentialSmoothing(severities.map(\.1), alpha: 0.3) - target)
        if let interval = served.interval {
            tally.intervals = 1
            tally.covered = interval.contains(target) ? 1 : 0
            tally.width = interval.upperBound - interval.lowerBound
        }
        if let model = outcome.alternatives[.population] {
            tally.population = abs(model.predict(row: row, targetRange: range).severity - target)
            tally.populationForecasts = 1
        }
        for (kind, model) in outcome.alternatives where kind != .combined {
            tally.alternatives[kind] = (abs(model.predict(row: row, targetRange: range).severity - target), 1)
        }
        let personal = outcome.alternatives[.personal] ?? outcome.artifact
        tally.ungated = abs(personal.predict(row: row, targetRange: range).severity - target)
        tally.kinds[outcome.artifact.source] = 1
        if let leading = leadingCandidate(outcome.artifact) { tally.leading[leading] = 1 }
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

    /// Simple exponential smoothing's forecast after `values`: the level starts at the first value and moves
    /// `alpha` of the way to each next one.
    static func exponentialSmoothing(_ values: [Double], alpha: Double) -> Double {
        var level = values[0]
        for value in values.dropFirst() { level += alpha * (value - level) }
        return level
    }
    private static func summarize(
        _ tally: EvaluationTally, kindsByDay: [[ServedChoice?]], first: Day, last: Day, days: Int, users: Int
    ) -> Evaluation {
        let count = Double(max(tally.forecasts, 1))
        var share: [ModelSource: Double] = [:]
        for (kind, forecasts) in tally.kinds { share[kind] = Double(forecasts) / count }
        var leading: [CombinationCandidate: Double] = [:]
        for (candidate, forecasts) in tally.leading { leading[candidate] = Double(forecasts) / count }
        var agree = 0
        var pairs = 0
        var distances = 0.0
        var compared = 0
        if kindsByDay.count > 7 {
            for step in 0..<(kindsByDay.count - 7) {
                for (a, b) in zip(kindsByDay[step], kindsByDay[step + 7]) {
                    guard let a, let b else { continue }
                    pairs += 1
                    if a.agrees(with: b) { agree += 1 }
                    if let distance = a.weightDistance(to: b) {
                        distances += distance
                        compared += 1
                    }
                }
            }
        }
        let flares = tally.flares
        let brier = flares.reduce(0.0) {
            $0 + ($1.probability - ($1.flare ? 1 : 0)) * ($1.probability - ($1.flare ? 1 : 0))
        }
        return Evaluation(
            evaluatedAt: Date(timeIntervalSince1970: 0), first: first, last: last, days: days, users: users,
            forecasts: tally.forecasts,
            served: tally.served / count, persistence: tally.persistence / count, userMean: tally.userMean / count,
            population: tally.populationForecasts > 0 ? tally.population / Double(tally.populationForecasts) : nil,
            ungatedPersonal: tally.ungated / count,
            alternatives: tally.alternatives.mapValues { $0.error / Double(max($0.forecasts, 1)) },
            smoothing: tally.smoothing / count,
            intervalCoverage: tally.intervals > 0 ? Double(tally.covered) / Double(tally.intervals) : nil,
            intervalWidth: tally.intervals > 0 ? tally.width / Double(tally.intervals) : nil,
            servedBeforeYesterdayLogged: tally.earlyServed / Double(max(tally.early, 1)),
            userMeanBeforeYesterdayLogged: tally.earlyUserMean / Double(max(tally.early, 1)), servedShare: share,
            leadingShare: leading,
            weekApartAgreement: pairs > 0 ? Double(agree) / Double(pairs) : nil,
            weekApartWeightChange: compared > 0 ? distances / Double(compared) : nil,
            flareBrier: brier / Double(max(flares.count, 1)), flareAUC: Evaluation.areaUnderCurve(flares),
            flareCalibrationError: Evaluation.calibrationError(flares), flareDays: flares.filter(\.flare).count,
            periods: [])
    }
}
