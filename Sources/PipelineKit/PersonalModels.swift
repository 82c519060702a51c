public import Domain
import Foundation
public import Learning
internal import Storage
import Synchronization

/// The personal models of DESIGN §5 over the store: retraining with gated, atomic promotion,
/// forecasts, the exact training matrix of a fit, and weekly insights.
///
/// One value serves a whole launch: it trains the population model once (the first retrain that
/// needs it) and shares it between users, and it keeps one `ModelTrainer` per concurrent fit, so
/// retrains running at once never share scratch memory. It stores nothing while it trains: each retrain's
/// artifacts, and the population model with the first retrain that succeeds, are stored by `retrain(user:)`,
/// or handed back by `train(user:)` for the `ml-retrain` task to store with its run's record.
public final class PersonalModels: ModelTrainingService {
    let pipeline: Pipeline
    public let spec: ModelSpec
    /// Users read and featurized at once while pooling the population.
    let jobs: Int
    private let population = Locked<Task<PopulationModel, any Error>?>(nil)
    /// What the first retrain's population model comes from, read ahead as a launch starts
    /// (`prepareForRetrains()`), until that retrain takes it.
    private let preparedPopulation = Locked<Task<PopulationSource, any Error>?>(nil)
    private let trainers = Locked<[ModelTrainer]>([])
    /// The population model this value pooled, until a retrain takes it to store (`TrainedModel.population`): the
    /// first to succeed, whose run stores it with its own model and record, so that it lands only while that
    /// run's lease holds. When no run of the launch stores it, the next launch pools it again.
    private let unstoredPopulation = Locked<StoredModel?>(nil)
    /// Connections of their own for the logs each fit and pooling step reads (`Store.logReader()`), one per
    /// concurrent worker, so workers read side by side instead of one at a time through the store's actor
    /// (on PostgreSQL, one more server connection per worker while this value lives).
    private let readers: ReaderPool
    /// What the retrains of a claimed batch read, being read in the background from the batch's claim
    /// (`prepareRetrains(of:)`), until each user's retrain takes theirs.
    private let readAhead = ReadAhead<RetrainInput>()

    public init(pipeline: Pipeline, spec: ModelSpec = .symptomForecast, jobs: Int = 1) {
        self.pipeline = pipeline
        self.spec = spec
        self.jobs = max(1, jobs)
        readers = ReaderPool(limit: self.jobs)
    }

    var store: Store { pipeline.store }

    // MARK: - Retraining

    /// Retrains the user's model on their days before today (in their zone) and serves the best candidate on
    /// rolling-origin folds over the last weeks: the new personal model, the incumbent re-scored, the
    /// population model, "tomorrow = today" or the user's recent mean (`Learning`'s selection). The artifact
    /// records every score and why the winner won; it replaces the serving one in the same transaction.
    public func retrain(user id: UserID) async throws(PipelineError) -> RetrainOutcome {
        let trained = try await train(user: id)
        for model in [trained.population, trained.model].compactMap(\.self) {
            _ = try await pipeline.storage { (store) throws(StorageError) in try await store.save(model) }
        }
        return trained.outcome
    }

    /// `retrain(user:)` without the saves: the artifacts to store, for the `ml-retrain` task to store
    /// with its run's record.
    public func train(user id: UserID) async throws(PipelineError) -> TrainedModel {
        let now = pipeline.clock.now
        let population = try await populationModel()
        if Task.isCancelled { throw .cancelled }
        let read: RetrainInput
        if let input = await readAhead.take(id), input.today == input.user.today(at: now) {
            read = input
        } else {
            // Not prepared with a batch (or read for an earlier day): read as a batch of one.
            guard let user = try await withReader({ (reader) throws(StorageError) in try await reader.user(id) }),
                let input = try await readInputs(of: [user], at: now)[id]
            else { throw .unknownUser(id.rawValue) }
            read = input
        }
        let (today, days, served) = (read.today, read.days, read.served)
        let incumbent = served.flatMap { try? ModelArtifact(json: Data($0.json.utf8)) }
        var trainer = takeTrainer()
        defer { returnTrainer(trainer) }
        let outcome: TrainingOutcome
        do {
            outcome = try trainer.train(
                user: id, days: days, today: today, population: population, incumbent: incumbent, trainedAt: now)
        } catch {
            throw .learning(error)
        }
        if Task.isCancelled { throw .cancelled }
        let artifact = outcome.artifact
        let model = StoredModel(
            scope: id.rawValue, specVersion: artifact.specVersion, source: Self.storedSource(artifact.source),
            asOfDay: today, trainedAt: now, promoted: outcome.promoted, reason: outcome.reason,
            designFingerprint: DesignFingerprint.of(days), json: artifact.jsonText)
        let pooled = unstoredPopulation.withLock { unstored in
            defer { unstored = nil }
            return unstored
        }
        return TrainedModel(
            outcome: RetrainOutcome(promoted: outcome.promoted, reason: outcome.reason), model: model,
            population: pooled)
    }

    /// What one retrain reads: the user, their today, their days before it and the artifact served to them.
    private struct RetrainInput: Sendable {
        var user: User
        var today: Day
        var days: [SourcedDayValues]
        var served: StoredModel?
    }

    /// Reads what the retrains of `users` (a claimed batch) will read: the users at once, then their days and
    /// served artifacts in the background, in parts of 2, 4, 8, … users on one reader, each part handed over as
    /// it is read (`ReadAhead`), so that one worker's fits rarely wait for the database. Returns the users read, in
    /// the order of `users`; on an error, none, and each retrain of a part that could not be read reads for itself.
    public func prepareRetrains(of users: [UserID]) async -> [User] {
        guard !users.isEmpty else { return [] }
        readAhead.expect(users)
        guard let read = try? await withReader({ (reader) throws(StorageError) in try await reader.users(users) })
        else {
            readAhead.publish([:], for: users)
            return []
        }
        // In the order the runs will go, so that the first part read is the first to train.
        let byID = Dictionary(read.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<UserID>()
        let found = users.compactMap { id in seen.insert(id).inserted ? byID[id] : nil }
        readAhead.publish([:], for: users.filter { byID[$0] == nil })
        let now = pipeline.clock.now
        var parts: [[User]] = []
        var start = 0
        while start < found.count {
            let end = min(found.count, start + max(2, start))
            parts.append(Array(found[start..<end]))
            start = end
        }
        Task {
            _ = try? await withReader { (reader) throws(StorageError) in
                try await Self.readInputs(of: parts, at: now, on: reader) { self.readAhead.publish($0, for: $1) }
            }
            // What could not be read: its retrains read for themselves.
            readAhead.publish([:], for: found.map(\.id))
        }
        return found
    }

    /// What the retrains of `users` read at `now`: their days before their today (without their notes, which no
    /// fit reads) and their served artifacts, in two queries on one reader, the store's connection left to claims
    /// and records.
    private func readInputs(of users: [User], at now: Date) async throws(PipelineError) -> [UserID: RetrainInput] {
        var inputs: [UserID: RetrainInput] = [:]
        try await withReader { (reader) throws(StorageError) in
            try await Self.readInputs(of: [users], at: now, on: reader) { read, _ in inputs = read }
        }
        return inputs
    }

    /// `readInputs(of:at:)` for each of `parts` in turn, on `source`'s executor (one hop to it for them all), each
    /// part's handed to `publish` with the part's users as soon as it is read.
    private static func readInputs(
        of parts: [[User]], at now: Date, on source: isolated any LogSource,
        publish: ([UserID: RetrainInput], [UserID]) -> Void
    ) async throws(StorageError) {
        for users in parts {
            let todays = users.map { $0.today(at: now) }
            guard let last = todays.max()?.adding(days: -1) else { continue }
            let ids = users.map(\.id)
            let days = try await source.sourcedDayValues(users: ids, through: last)
            let served = try await source.servingModels(scopes: ids.map(\.rawValue))
            var inputs: [UserID: RetrainInput] = [:]
            for (index, user) in users.enumerated() {
                // Users in zones a day behind read one day more than theirs: it is left out here.
                let through = todays[index].adding(days: -1)
                inputs[user.id] = RetrainInput(
                    user: user, today: todays[index], days: days[index].filter { $0.day <= through },
                    served: served[user.id.rawValue])
            }
            publish(inputs, ids)
        }
    }

    /// The stored `source` column says whose data the coefficients come from: `population` for the pooled
    /// model, `personal` for everything computed from the user's own days (a personal fit, persistence, the
    /// recent mean). The artifact's `source` names the exact kind.
    static func storedSource(_ source: ModelSource) -> String {
        source == .population ? ModelSource.population.rawValue : ModelSource.personal.rawValue
    }

    /// Each user's day values through `last`, in one call to a reader of the pool (on PostgreSQL one query
    /// instead of a round trip each).
    private func dayValues(users: [UserID], through last: Day) async throws(PipelineError) -> [[DayValues]] {
        try await withReader { (reader) throws(StorageError) in
            try await reader.dayValues(users: users, through: last)
        }
    }

    /// Runs `body` with a reader of the pool (a new one when every reader is in use), then returns it to the pool.
    /// When no more readers can be opened (`StorageError.isBusy`: a server at its connection limit), the
    /// retrain goes on with the readers it has, waiting for one to come back; with none at all, it reads
    /// through the store's connection. Fewer readers only make it slower.
    private func withReader<R>(_ body: (any LogSource) async throws(StorageError) -> R) async throws(PipelineError) -> R
    {
        do throws(StorageError) {
            let taken = try await readers.take(
                opening: { () throws(StorageError) in try store.logReader() }, log: pipeline.log)
            switch taken {
            case .reader(let reader):
                defer { readers.give(back: reader) }
                return try await body(reader)
            case .none:
                return try await body(store)
            }
        } catch {
            throw .storage(error)
        }
    }

    private func takeTrainer() -> ModelTrainer {
        trainers.withLock { $0.popLast() } ?? ModelTrainer(spec: spec)
    }

    private func returnTrainer(_ trainer: ModelTrainer) {
        trainers.withLock { $0.append(trainer) }
    }

    // MARK: - The population model

    /// The day the population is trained "as of": the earliest calendar day anywhere on Earth
    /// (UTC−12), so no user's today or later ever becomes population training data.
    func populationDay(at now: Date) -> Day {
        Day(containing: now, in: TimeZone(secondsFromGMT: -12 * 3600)!)
    }

    /// Starts reading the population model ahead of the first retrain: the stored one, or every user's rows
    /// pooled (reads only; the model is trained when a retrain asks for it, and stored with it). A launch calls this
    /// before it starts chains and claims requests: on a first launch, starting every user's chain keeps one core
    /// busy while the other would wait (docs/benchmarks.md).
    public func prepareForRetrains() {
        population.withLock { current in
            guard current == nil else { return }
            preparedPopulation.withLock { prepared in
                guard prepared == nil else { return }
                prepared = Task { try await self.readPopulation(asOf: self.populationDay(at: self.pipeline.clock.now)) }
            }
        }
    }

    /// Drops a population read ahead that no retrain took: a launch with no retrain due pools nothing more.
    public func stopPreparing() {
        preparedPopulation.withLock { prepared in
            prepared?.cancel()
            prepared = nil
        }
        readAhead.removeAll()
    }

    /// The population model for this launch: the stored one if it was trained as of the current
    /// population day, otherwise a new one pooled over every user, which the first retrain that succeeds
    /// stores (`unstoredPopulation`). Computed once per value, however many retrains ask at once.
    public func populationModel() async throws(PipelineError) -> PopulationModel {
        let task = population.withLock { current in
            if let current { return current }
            let prepared = preparedPopulation.withLock { prepared in
                defer { prepared = nil }
                return prepared
            }
            let created = Task { try await self.loadOrTrainPopulation(prepared: prepared) }
            current = created
            return created
        }
        do {
            return try await task.value
        } catch let error as PipelineError {
            throw error
        } catch {
            preconditionFailure("unexpected error: \(error)")
        }
    }

    /// Where a population model comes from: the one stored for `day`, or the cohort's rows pooled for it.
    enum PopulationSource: Sendable {
        case stored(PopulationModel, day: Day)
        case pooled(PopulationAccumulator, day: Day)

        var day: Day {
            switch self {
            case .stored(_, let day), .pooled(_, let day): day
            }
        }
    }

    /// The stored population model when it was trained as of `day` with this spec, otherwise every user's
    /// rows pooled for `day`. Writes nothing, and reads on a reader of the pool: a read ahead that waits for a
    /// lock leaves the store's connection to the launch.
    private func readPopulation(asOf day: Day) async throws(PipelineError) -> PopulationSource {
        let scope = StoredModel.populationScope
        if let stored = try await withReader({ (reader) throws(StorageError) in
            try await reader.servingModel(scope: scope)
        }),
            stored.asOfDay == day, stored.specVersion == spec.version
        {
            do {
                let artifact = try ModelArtifact(json: Data(stored.json.utf8))
                return .stored(try PopulationModel(artifact: artifact, spec: spec), day: day)
            } catch {
                pipeline.log.log(.warning, "the stored population model is unreadable (\(error)); training a new one")
            }
        }
        return .pooled(try await poolPopulation(asOf: day), day: day)
    }

    private func loadOrTrainPopulation(prepared: Task<PopulationSource, any Error>?) async throws(PipelineError)
        -> PopulationModel
    {
        if let kernels = BLASKernels.advice(environment: ProcessInfo.processInfo.environment) {
            pipeline.log.log(
                .warning,
                "OpenBLAS does not recognize this CPU and runs its generic \(BLASKernels.current) kernels; start the "
                    + "process with \(BLASKernels.environmentVariable)=\(kernels) for fits about 1.3 times as fast")
        }
        let now = pipeline.clock.now
        let day = populationDay(at: now)
        // A read ahead that failed (a lock that timed out, a connection lost), or that was for a population day
        // that has since ended, is read again here: its error is this retrain's only if it happens again.
        let source: PopulationSource
        if let ahead = try? await prepared?.value, ahead.day == day {
            source = ahead
        } else {
            source = try await readPopulation(asOf: day)
        }
        let accumulator: PopulationAccumulator
        switch source {
        case .stored(let model, _): return model
        case .pooled(let pooled, _): accumulator = pooled
        }
        let scope = StoredModel.populationScope
        var model: PopulationModel
        do {
            // Every retrain waits for it: its flare head takes as many cores as the retrains would.
            model = try accumulator.model(trainedAt: now, threads: jobs)
        } catch {
            throw .learning(error)
        }
        model = model.with(try await cohortSettings(population: model, at: now))
        let artifact = model.artifact
        let stored = StoredModel(
            scope: scope, specVersion: artifact.specVersion, source: Self.storedSource(artifact.source), asOfDay: day,
            trainedAt: now, promoted: true, reason: "pooled over \(accumulator.rowCount) training days of the cohort",
            designFingerprint: nil, json: artifact.jsonText)
        unstoredPopulation.withLock { $0 = stored }
        return model
    }

    /// Pools every user's training rows, `jobs + 1` chunks at a time: one more than the workers, so that a chunk
    /// is being read while the workers accumulate the ones read (on PostgreSQL the reads are the server's work,
    /// not this process's: docs/benchmarks.md, "Measurements behind the code"). Users go in fixed chunks of
    /// `poolingChunk`, each accumulated in user order, and the chunks are merged in chunk order as they
    /// finish, so the sums — and the artifacts trained on them — are bit-identical whatever `jobs` is.
    private func poolPopulation(asOf day: Day) async throws(PipelineError) -> PopulationAccumulator {
        // On a reader, not through the store's actor, where a first launch is writing the chains it starts.
        let users = try await withReader { (reader) throws(StorageError) in try await reader.userIDs() }
        let chunks = (users.count + Self.poolingChunk - 1) / Self.poolingChunk
        let cursor = Cursor()
        let sampleBound = SampleBound()
        let spec = self.spec
        return try await asPipelineErrors {
            try await withThrowingTaskGroup(of: (Int, PopulationAccumulator).self) { group in
                @Sendable func pool(_ chunk: Int) async throws -> (Int, PopulationAccumulator) {
                    var accumulator = PopulationAccumulator(spec: spec, today: day)
                    accumulator.sampleKeyLimit = sampleBound.limit
                    // The population learns only from rows before the evaluation window, and a row reads logs
                    // before its day: later logs would be read only to be ignored.
                    let last = accumulator.holdoutStart.adding(days: -1)
                    let end = min(users.count, (chunk + 1) * Self.poolingChunk)
                    let members = Array(users[(chunk * Self.poolingChunk)..<end])
                    try Task.checkCancellation()
                    for (user, values) in zip(members, try await self.dayValues(users: members, through: last)) {
                        accumulator.add(user: user, values: values)
                    }
                    return (chunk, accumulator)
                }
                for _ in 0..<min(jobs + 1, max(1, chunks)) {
                    guard let chunk = cursor.next(below: chunks) else { break }
                    group.addTask { try await pool(chunk) }
                }
                var total = PopulationAccumulator(spec: spec, today: day)
                var finished: [Int: PopulationAccumulator] = [:]
                var next = 0
                for try await (chunk, part) in group {
                    finished[chunk] = part
                    while let ready = finished.removeValue(forKey: next) {
                        total.merge(ready)
                        next += 1
                    }
                    if let bound = total.sampleKeyBound { sampleBound.lower(to: bound) }
                    if let chunk = cursor.next(below: chunks) { group.addTask { try await pool(chunk) } }
                }
                return total
            }
        }
    }

    /// The cohort's settings for every user's combination, learned on the sampled users' folds
    /// (`CohortCalibration`): each sampled user read and selected as their retrain would, `jobs` at a time.
    private func cohortSettings(population: PopulationModel, at now: Date) async throws(PipelineError)
        -> CohortSettings
    {
        let spec = self.spec
        let users = try await withReader { (reader) throws(StorageError) in try await reader.userIDs() }
        let sample = CohortCalibration.sample(users, spec: spec)
        let cursor = Cursor()
        return try await asPipelineErrors {
            try await withThrowingTaskGroup(of: [(Int, CohortCalibration)].self) { group in
                for _ in 0..<min(jobs, max(1, sample.count)) {
                    group.addTask {
                        var trainer = ModelTrainer(spec: spec)
                        var done: [(Int, CohortCalibration)] = []
                        while let index = cursor.next(below: sample.count) {
                            let read = try await self.withReader {
                                (reader) throws(StorageError) -> (Day, [SourcedDayValues])? in
                                guard let user = try await reader.user(sample[index]) else { return nil }
                                let today = user.today(at: now)
                                return (
                                    today,
                                    try await reader.sourcedDayValues(user: user.id, through: today.adding(days: -1))
                                )
                            }
                            guard let (today, days) = read else { continue }
                            let design = FeatureBuilder(spec: spec).designMatrix(days: days, today: today)
                            var calibration = CohortCalibration(spec: spec)
                            do throws(LearningError) {
                                try calibration.add(
                                    user: sample[index], design: design, today: today, population: population,
                                    trainer: &trainer)
                            } catch {
                                throw PipelineError.learning(error)
                            }
                            done.append((index, calibration))
                        }
                        return done
                    }
                }
                // In sample order, whatever worker selected whom: the same settings whatever `jobs` is.
                var parts: [(Int, CohortCalibration)] = []
                for try await part in group { parts += part }
                var total = CohortCalibration(spec: spec)
                for (_, part) in parts.sorted(by: { $0.0 < $1.0 }) { total.merge(part) }
                return total.settings()
            }
        }
    }

    /// Users per pooling chunk: small enough to spread over the workers, large enough that merging is rare.
    static let poolingChunk = 16

    /// The pooled sample's `sampleKeyBound` as the merges lower it, for the chunks started after.
    private final class SampleBound: Sendable {
        private let value = Atomic<UInt64>(.max)

        var limit: UInt64 { value.load(ordering: .relaxed) }

        func lower(to bound: UInt64) {
            value.store(bound, ordering: .relaxed)
        }
    }

    /// Hands out indexes 0, 1, 2, … to concurrent workers.
    private final class Cursor: Sendable {
        private let position = Atomic<Int>(0)

        func next(below count: Int) -> Int? {
            let index = position.wrappingAdd(1, ordering: .relaxed).oldValue
            return index < count ? index : nil
        }
    }
}

/// Runs `body`, a group of workers, and throws what stopped it: a worker's `PipelineError`, or `.cancelled`.
private func asPipelineErrors<T>(_ body: () async throws -> T) async throws(PipelineError) -> T {
    do {
        return try await body()
    } catch let error as PipelineError {
        throw error
    } catch is CancellationError {
        throw .cancelled
    } catch {
        preconditionFailure("unexpected error: \(error)")
    }
}
