public import Domain
import Foundation
public import Learning
public import PipelineKit
import Scheduling
import Storage

/// What `pipeline report` writes.
public struct ReportOptions: Sendable {
    /// The folder of the site; created `0700` when missing.
    public var outputPath: String
    /// Only this user's page (the cohort page is always written).
    public var user: UserID?
    /// Pseudonyms for user ids, and no notes.
    public var redact = false
    /// Days charted on a user's page, ending yesterday in the user's zone.
    public var days = 180
    /// Days of the scheduler's run history charted, ending today (UTC).
    public var schedulerDays = 28
    /// Users read and rendered at once.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// The cohort page's forecast-error figures; `nil` for the latest evaluation `pipeline evaluate`
    /// recorded, or the served models' hold-out metrics when none was (`LatestEvaluationForecastQuality`).
    public var forecastQuality: (any ForecastQualitySource)?
    public var spec: ModelSpec = .symptomForecast

    public init(outputPath: String) {
        self.outputPath = outputPath
    }
}

/// What was written.
public struct ReportSummary: Sendable, Hashable {
    /// Files relative to the output folder, the cohort page first.
    public var files: [String]
    public var users: Int
}

/// Reads the cohort and each user through PipelineKit and Storage, and writes the site: the cohort
/// page `index.html` and `users/<name>.html` per user. Nothing is written outside the folder, and a
/// page references nothing outside itself but the other pages.
public enum ReportGenerator {
    public static func write(pipeline: Pipeline, options: ReportOptions) async throws(ReportError) -> ReportSummary {
        let folder = try ReportFolder(path: options.outputPath)
        let now = pipeline.clock.now
        let users = try await read { () async throws(PipelineError) in try await pipeline.users() }
        if let only = options.user, !users.contains(where: { $0.id == only }) {
            throw .unknownUser(only.rawValue)
        }
        let names = Pseudonyms(users: users.map(\.id), redact: options.redact)
        let population = try await read { () async throws(PipelineError) in
            try await pipeline.servingModel(scope: StoredModel.populationScope)
        }
        let populationArtifact = population.flatMap { try? ModelArtifact(json: Data($0.json.utf8)) }
        let context = UserContext(
            pipeline: pipeline, now: now, options: options, names: names, folder: folder,
            population: population, populationArtifact: populationArtifact)

        // Users in id order, several at once; each worker reads, renders and writes its users' pages.
        let results: [UserResult]
        do {
            results = try await withThrowingTaskGroup(of: [UserResult].self) { group in
                let workers = max(1, min(options.jobs, users.count))
                for worker in 0..<workers {
                    group.addTask {
                        var mine: [UserResult] = []
                        for index in stride(from: worker, to: users.count, by: workers) {
                            mine.append(try await context.process(users[index]))
                        }
                        return mine
                    }
                }
                var all: [UserResult] = []
                for try await part in group { all += part }
                return all.sorted { $0.summary.name < $1.summary.name }
            }
        } catch let error as ReportError {
            throw error
        } catch {
            // Only ReportError is thrown inside the group; anything else is cancellation.
            throw .pipeline(.cancelled)
        }

        let source = options.forecastQuality ?? LatestEvaluationForecastQuality(pipeline: pipeline)
        let quality = try await source.forecastQuality(of: results.map(\.snapshot))
        let calibration = Calibration(pairs: results.flatMap(\.calibrationPairs))
        let scheduler = try await SchedulerHealthReader(pipeline: pipeline, now: now, days: options.schedulerDays)
            .read()
        let location = pipeline.location
        let cohort = CohortReport(
            generatedAt: now, database: location, users: results.map(\.summary), windowDays: options.days,
            forecastQuality: quality,
            calibration: calibration, scheduler: scheduler, redacted: options.redact)
        try folder.write(CohortPage(report: cohort, linked: Set(results.compactMap(\.written))).html, to: "index.html")
        return ReportSummary(files: ["index.html"] + results.compactMap(\.written).sorted(), users: users.count)
    }

    /// Runs a PipelineKit read, mapping its error.
    static func read<T: Sendable>(_ body: () async throws(PipelineError) -> T) async throws(ReportError) -> T {
        do {
            return try await body()
        } catch {
            throw .pipeline(error)
        }
    }
}

/// One user's share of the cohort page, and the page file written for them (if any).
struct UserResult: Sendable {
    var summary: UserSummary
    var snapshot: ServedModelSnapshot
    var calibrationPairs: [(probability: Double, flare: Bool)]
    var written: String?
}

/// What every user's processing shares.
struct UserContext: Sendable {
    let pipeline: Pipeline
    let now: Date
    let options: ReportOptions
    let names: Pseudonyms
    let folder: ReportFolder
    let population: StoredModel?
    let populationArtifact: ModelArtifact?

    func process(_ user: User) async throws(ReportError) -> UserResult {
        let spec = options.spec
        let today = Day(containing: now, in: user.timeZone)
        let first = today.adding(days: -options.days)
        let id = user.id
        let logs = try await ReportGenerator.read { () async throws(PipelineError) in
            try await pipeline.dailyLogs(
                // Every day logged: a forecast's exponential means reach back to the first, as in training.
                user: id, through: today)
        }
        let (history, ownServing) = try await ReportGenerator.read { () async throws(PipelineError) in
            (try await pipeline.modelHistory(scope: id.rawValue), try await pipeline.servingModel(scope: id.rawValue))
        }
        let servedStored = ownServing ?? population
        let served: ModelArtifact? =
            if let ownServing { try? ModelArtifact(json: Data(ownServing.json.utf8)) } else { populationArtifact }
        // The newest fit with hold-out metrics: the population model's error on the same days as the
        // personal fit's, for users the population model serves.
        let latestPersonal = history.first { $0.source == ModelSource.personal.rawValue }
        let latestEvaluated: ModelArtifact? =
            if let latestPersonal {
                latestPersonal.id == ownServing?.id ? served : try? ModelArtifact(json: Data(latestPersonal.json.utf8))
            } else {
                nil
            }
        let usable = served.flatMap { (try? $0.check(against: spec)) == nil ? nil : $0 }

        let builder = FeatureBuilder(spec: spec)
        let range = spec.target.minimum...spec.target.maximum
        let threshold = usable?.flare.threshold ?? spec.flare.threshold

        // One design for the calibration and the page: a row for day D reads only days before D, so the
        // rows before the served model's fit day are the ones it was scored on.
        let design = builder.designMatrix(logs: logs, today: today)

        // Calibration: the served model on the days held out of its fit.
        var pairs: [(probability: Double, flare: Bool)] = []
        if let usable, let servedStored {
            let asOf = servedStored.asOfDay
            let holdoutFirst = usable.metrics?.first ?? asOf.adding(days: -spec.training.holdoutDays)
            for row in 0..<design.rowCount where design.days[row] >= holdoutFirst && design.days[row] < asOf {
                let flare = usable.predict(row: design.row(row), targetRange: range).flare
                pairs.append((flare, design.targets[row] >= threshold))
            }
        }

        let loggedDays = logs.filter { $0.day >= first && $0.day < today }
        let name = names.name(of: id)
        let summary = UserSummary(
            name: name, page: "users/\(name).html",
            servedModel: ServedModelKind(artifact: served, ownArtifact: ownServing != nil),
            loggedDays: loggedDays.count, lastDay: logs.last(where: { $0.day <= today })?.day)
        let snapshot = ServedModelSnapshot(user: id, served: served, latestEvaluated: latestEvaluated)
        guard options.user == nil || options.user == id else {
            return UserResult(summary: summary, snapshot: snapshot, calibrationPairs: pairs, written: nil)
        }

        // The page's series: every day of the window, through yesterday.
        let days = (0..<options.days).map { first.adding(days: $0) }
        var byDay: [Day: DailyLog] = [:]
        for log in loggedDays { byDay[log.day] = log }
        var forecast = [Double?](repeating: nil, count: days.count)
        var interval = [ClosedRange<Double>?](repeating: nil, count: days.count)
        var flare = [Double?](repeating: nil, count: days.count)
        var next: NextForecast?
        if let usable {
            for row in 0..<design.rowCount where design.days[row] >= first {
                let prediction = usable.predict(row: design.row(row), targetRange: range)
                let index = first.distance(to: design.days[row])
                forecast[index] = prediction.severity
                interval[index] = prediction.interval
                flare[index] = prediction.flare
            }
            // What 'pipeline predict' says now: tomorrow, from the logs through today.
            let tomorrow = today.adding(days: 1)
            let prediction = usable.predict(
                row: builder.predictionRow(logs: logs.filter { $0.day <= today }, for: tomorrow), targetRange: range)
            next = NextForecast(
                day: tomorrow, severity: prediction.severity, interval: prediction.interval,
                flareProbability: prediction.flare)
        }
        let holdout: ClosedRange<Day>? =
            if let metrics = usable?.metrics { metrics.first...metrics.last } else { nil }
        let personalWeight =
            usable?.source == .personal ? 1 : usable?.combination?.first { $0.candidate == .personal }?.weight ?? 0
        let associations =
            (personalWeight >= PersonalModels.insightWeight
            ? PersonalModels.describedAssociations(from: usable!, spec: spec) : [])
            .filter { abs($0.effect) >= 0.05 }.prefix(5)
            .map {
                AssociationLine(sentence: $0.sentence, input: $0.association.input, perUnit: $0.association.perUnit)
            }
        // Each fit named as `pipeline model` names what serves (the stored column only says whose data it is).
        let entries = history.map { stored in
            let artifact = stored.id == ownServing?.id ? served : try? ModelArtifact(json: Data(stored.json.utf8))
            return ModelHistoryEntry(
                trainedAt: stored.trainedAt, asOfDay: stored.asOfDay,
                source: artifact.map { ServedModelKind(artifact: $0, ownArtifact: true).label } ?? stored.source,
                promoted: stored.promoted, serving: stored.id == ownServing?.id, reason: stored.reason)
        }
        let report = UserReport(
            name: name, timeZone: options.redact ? nil : user.timeZone.identifier, today: today, days: days,
            severity: days.map { byDay[$0]?.value(of: .symptomSeverity) },
            mood: days.map { byDay[$0]?.value(of: .mood) }, energy: days.map { byDay[$0]?.value(of: .energy) },
            forecast: forecast, interval: interval, flareProbability: flare, flareThreshold: threshold,
            holdout: holdout, next: next, combination: ownServing == nil ? [] : usable?.combination ?? [],
            candidates: ownServing == nil ? [] : usable?.selection?.severity ?? [],
            sources: Field.metrics.map { field in (field, days.map { byDay[$0]?.source(of: field) }) },
            servedModel: summary.servedModel, servedTrainedAt: servedStored?.trainedAt,
            associations: Array(associations), history: entries,
            notes: options.redact
                ? [] : loggedDays.reversed().compactMap { log in log.notes.map { (log.day, $0) } })
        try folder.write(UserPage(report: report).html, to: summary.page)
        return UserResult(summary: summary, snapshot: snapshot, calibrationPairs: pairs, written: summary.page)
    }
}
