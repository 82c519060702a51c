public import Domain
import Foundation
public import Learning
import Storage
import Synchronization

/// The personal models of DESIGN §5 over the store: retraining with gated, atomic promotion,
/// forecasts, the exact training matrix of a fit, and weekly insights.
///
/// One value serves a whole launch: it trains the population model once (the first retrain that
/// needs it) and shares it between users, and it keeps one `ModelTrainer` per concurrent fit, so
/// retrains running at once never share scratch memory.
public final class PersonalModels: PersonalModelService {
    let pipeline: Pipeline
    public let spec: ModelSpec
    /// Users read and featurized at once while pooling the population.
    let jobs: Int
    private let population = Locked<Task<PopulationModel, any Error>?>(nil)
    private let trainers = Locked<[ModelTrainer]>([])

    public init(pipeline: Pipeline, spec: ModelSpec = .symptomForecast, jobs: Int = 1) {
        self.pipeline = pipeline
        self.spec = spec
        self.jobs = max(1, jobs)
    }

    var store: Store { pipeline.store }

    // MARK: - Retraining

    /// Retrains the user's model on their days before today (in their zone): a personal ridge shrunk
    /// toward the population model, evaluated on the last 14 days, promoted only if it beats both
    /// "tomorrow = today" and the population model there. The artifact is saved whatever the
    /// decision; promotion switches the served model in the same transaction.
    public func retrain(user id: UserID) async throws(PipelineError) -> RetrainOutcome {
        guard let user = try await pipeline.user(id) else { throw .unknownUser(id.rawValue) }
        let now = pipeline.clock.now
        let today = user.today(at: now)
        let population = try await populationModel()
        if Task.isCancelled { throw .cancelled }
        let logs = try await pipeline.dailyLogs(user: id, through: today.adding(days: -1))
        var trainer = takeTrainer()
        defer { returnTrainer(trainer) }
        let outcome: TrainingOutcome
        do {
            outcome = try trainer.train(user: id, logs: logs, today: today, population: population, trainedAt: now)
        } catch {
            throw .learning(error)
        }
        if Task.isCancelled { throw .cancelled }
        let artifact = outcome.artifact
        let model = StoredModel(
            scope: id.rawValue, specVersion: artifact.specVersion, source: artifact.source.rawValue, asOfDay: today,
            trainedAt: now, promoted: outcome.promoted, reason: outcome.reason,
            designFingerprint: Self.fingerprint(logs), json: artifact.jsonText)
        _ = try await pipeline.storage { (store) throws(StorageError) in try await store.save(model) }
        return RetrainOutcome(promoted: outcome.promoted, reason: outcome.reason)
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

    /// The population model for this launch: the stored one if it was trained as of the current
    /// population day, otherwise a new one pooled over every user and stored. Computed once per
    /// value, however many retrains ask at once.
    public func populationModel() async throws(PipelineError) -> PopulationModel {
        let task = population.withLock { current in
            if let current { return current }
            let created = Task { try await self.loadOrTrainPopulation() }
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

    private func loadOrTrainPopulation() async throws(PipelineError) -> PopulationModel {
        let now = pipeline.clock.now
        let day = populationDay(at: now)
        let scope = StoredModel.populationScope
        if let stored = try await pipeline.storage({ (store) throws(StorageError) in
            try await store.servingModel(scope: scope)
        }),
            stored.asOfDay == day, stored.specVersion == spec.version
        {
            do {
                return try PopulationModel(artifact: try ModelArtifact(json: Data(stored.json.utf8)), spec: spec)
            } catch {
                pipeline.log.log(.warning, "the stored population model is unreadable (\(error)); training a new one")
            }
        }
        let accumulator = try await poolPopulation(asOf: day)
        let model: PopulationModel
        do {
            model = try accumulator.model(trainedAt: now)
        } catch {
            throw .learning(error)
        }
        let artifact = model.artifact
        let stored = StoredModel(
            scope: scope, specVersion: artifact.specVersion, source: artifact.source.rawValue, asOfDay: day,
            trainedAt: now, promoted: true, reason: "pooled over \(accumulator.rowCount) training days of the cohort",
            designFingerprint: nil, json: artifact.jsonText)
        _ = try await pipeline.storage { (store) throws(StorageError) in try await store.save(stored) }
        return model
    }

    /// Pools every user's training rows, `jobs` users at a time, each worker with its own
    /// accumulator (merged at the end; the result does not depend on the order).
    private func poolPopulation(asOf day: Day) async throws(PipelineError) -> PopulationAccumulator {
        let users = try await pipeline.users().map(\.id)
        let cursor = Cursor()
        let spec = self.spec
        do {
            return try await withThrowingTaskGroup(of: PopulationAccumulator.self) { group in
                for _ in 0..<min(jobs, max(1, users.count)) {
                    group.addTask {
                        var accumulator = PopulationAccumulator(spec: spec, today: day)
                        while let index = cursor.next(below: users.count) {
                            try Task.checkCancellation()
                            let logs = try await self.pipeline.dailyLogs(
                                user: users[index], through: day.adding(days: -1))
                            accumulator.add(user: users[index], logs: logs)
                        }
                        return accumulator
                    }
                }
                var total = PopulationAccumulator(spec: spec, today: day)
                for try await part in group { total.merge(part) }
                return total
            }
        } catch let error as PipelineError {
            throw error
        } catch is CancellationError {
            throw .cancelled
        } catch {
            preconditionFailure("unexpected error: \(error)")
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

    /// Identifies the logs a fit saw (days, values and sources), so the exact training matrix can be
    /// rebuilt later and a change in the data since the fit noticed. FNV-1a over the values' bits.
    static func fingerprint(_ logs: [DailyLog]) -> String {
        var hash = FNV1a()
        for log in logs {
            hash.add(UInt64(bitPattern: Int64(log.day.ordinal)))
            for field in Field.allCases {
                hash.add(log.value(of: field).map { $0.bitPattern } ?? 0x7FF8_DEAD_0000_0001)
                hash.add(log.source(of: field) == .user ? 1 as UInt64 : 0)
            }
        }
        return String(hash.value, radix: 16)
    }
}
