import Domain
import Foundation
import TestSupport
import Testing

@testable import Learning

@Suite("Training, promotion and artifacts")
struct ModelTrainerTests {
    static let start = Day("2025-06-01")!
    static let trainedAt = Date(iso: "2026-03-01T03:00:00Z")

    static func cohort(count: Int = 12, days: @escaping (Int) -> Int = { 200 + 15 * $0 }) -> [SyntheticUser] {
        SyntheticUser.cohort(count: count, days: days, start: start, seed: 5)
    }

    static func population(_ users: [SyntheticUser], today: Day) throws -> PopulationModel {
        var accumulator = PopulationAccumulator(today: today)
        for user in users { accumulator.add(user: user.id, logs: user.logs) }
        return try accumulator.model(trainedAt: trainedAt)
    }

    /// The flare head's Newton matrices are summed over two halves of the sampled rows, on two threads or one:
    /// the same sums, so a retrain's population does not depend on its `--jobs`. And the halves add up to the
    /// matrix of one pass over the rows (an odd count of rows: halves of 1 and 2 rows in a 3-row case).
    @Test("the population model is the same, bit for bit, fitted on one thread or two")
    func populationThreads() throws {
        let users = Self.cohort()
        var accumulator = PopulationAccumulator(today: Self.start.adding(days: 200))
        for user in users { accumulator.add(user: user.id, logs: user.logs) }
        let one = try accumulator.model(trainedAt: Self.trainedAt, threads: 1)
        let two = try accumulator.model(trainedAt: Self.trainedAt, threads: 2)
        #expect(one.artifact.flare.fitted == "population")
        #expect(two.artifact == one.artifact)

        var random = SeededRandom(seed: 41)
        for rows in [1, 3, 40, 1_100] {
            let x = Matrix(rows: rows, columns: 5, storage: (0..<(rows * 5)).map { _ in random.uniform(-2...2) })
            let weights = (0..<rows).map { _ in random.unit() }
            var whole = Matrix(rows: 0, columns: 0)
            var scratch: [Double] = []
            LinearAlgebra.weightedGram(x, weights: weights, into: &whole, scratch: &scratch)
            for concurrently in [false, true] {
                var halves = Matrix(rows: 0, columns: 0)
                var second = Matrix(rows: 0, columns: 0)
                var (first, last): ([Double], [Double]) = ([], [])
                LinearAlgebra.weightedGramInHalves(
                    x, weights: weights, into: &halves, second: &second, scratch: &first, secondScratch: &last,
                    concurrently: concurrently)
                for k in 0..<6 {
                    for j in 0...k {
                        let scale = max(1, abs(whole[j, k]))
                        #expect(abs(halves[j, k] - whole[j, k]) <= 1e-13 * scale, "\(rows) rows: [\(j), \(k)]")
                    }
                }
            }
        }
    }

    @Test("a user with fewer than 14 usable days gets no personal model; the combination weighs the others")
    func fewDays() throws {
        let users = Self.cohort()
        let today = Self.start.adding(days: 200)
        let population = try Self.population(users, today: today)
        #expect(population.isPooled)
        // 12 days of logs end the day before today: at most 11 usable days.
        let logs = users[0].logs.filter { $0.day >= today.adding(days: -12) && $0.day < today }
        var trainer = ModelTrainer()
        let outcome = try trainer.train(
            user: users[0].id, logs: logs, today: today, population: population, trainedAt: Self.trainedAt)
        #expect(outcome.artifact.source == .combined)
        #expect(outcome.artifact.combination?.first { $0.candidate == .personal }?.weight == 0)
        #expect(outcome.alternatives[.personal] == nil)
        #expect(outcome.promoted)
        let selection = try #require(outcome.artifact.selection)
        #expect(!selection.severity.contains { $0.candidate == "personal" })
        #expect(outcome.artifact.user == users[0].id.rawValue)
        #expect(trainer.trainingDesign(logs: logs, today: today) == nil)
    }

    /// The combination's weights are the penalized least-squares solution on the fold days: at the served
    /// weights the gradient of Σ (y − S − Σ v_k (F_k − S))² + λ Σ s_k (v_k − prior_k)² is zero, and the
    /// combination's score is that of weights fitted on each user's earlier folds only.
    @Test("the folds cover the last 84 days and the served weights solve the penalized fit on them")
    func combinationRule() throws {
        let users = Self.cohort()
        let today = Self.start.adding(days: 200)
        let population = try Self.population(users, today: today)
        var trainer = ModelTrainer()
        let cohort = CohortSettings.initial(.symptomForecast)
        for user in users {
            let outcome = try trainer.train(
                user: user.id, logs: user.logs, today: today, population: population, trainedAt: Self.trainedAt)
            let selection = try #require(outcome.artifact.selection)
            #expect(selection.folds == 4)
            #expect(try #require(selection.first) >= today.adding(days: -84) && selection.last! < today)
            let evidence = outcome.evidence
            #expect(evidence.count == selection.days)
            let column = ModelSpec.symptomForecast.combination.smoothingConstants.firstIndex(of: cohort.smoothing)!
            let candidates = Combination.candidates(evidence)
            #expect(candidates == [.longMean, .population, .personal])
            let served = Dictionary(
                uniqueKeysWithValues: try #require(outcome.artifact.combination).map { ($0.candidate, $0.weight) })
            for (a, candidate) in candidates.enumerated() {
                var gradient = cohort.priorPseudoDays * cohort.scale(candidate) * (served[candidate]! - 0)
                for i in 0..<evidence.count {
                    let s = evidence.smoothing[column][i]
                    var residual = evidence.targets[i] - s
                    for other in candidates { residual -= served[other]! * (evidence.others[other]![i] - s) }
                    gradient -= residual * (evidence.others[candidates[a]]![i] - s)
                }
                #expect(abs(gradient) < 1e-8 * Double(evidence.count), "\(candidate)")
            }
            let combined = try #require(selection.meanAbsoluteError(of: "combined"))
            let outOfFold = Combination.outOfFold(
                evidence, smoothing: column, candidates: candidates, prior: [0, 0, 0],
                scales: candidates.map(cohort.scale), pseudoDays: cohort.priorPseudoDays, range: 0...10)
            #expect(
                abs(combined - CohortCalibration.absoluteError(outOfFold, evidence.targets) / Double(evidence.count))
                    < 1e-12)
        }
    }

    @Test("the served artifact predicts exactly the population model plus the personal fit of its residual")
    func partialPoolingFoldsIn() throws {
        let users = Self.cohort()
        let today = Self.start.adding(days: 200)
        let population = try Self.population(users, today: today)
        var trainer = ModelTrainer()
        let outcome = try trainer.train(
            user: users[3].id, logs: users[3].logs, today: today, population: population, trainedAt: Self.trainedAt)
        let personalModel = try #require(outcome.alternatives[.personal])
        let design = try #require(trainer.trainingDesign(logs: users[3].logs, today: today))
        // Refit the residual by hand: the same ridge on the same standardized rows.
        let standardization = Standardization(fitting: design.values)
        var z = Matrix(rows: 0, columns: 0)
        standardization.apply(design.values, into: &z)
        var offsets: [Double] = []
        var flareOffsets: [Double] = []
        population.linearPredictors(design.values, severity: &offsets, flare: &flareOffsets)
        var ridge = RidgeWorkspace()
        let residualFit = try ridge.fitLeaveOneOut(
            x: z, y: zip(design.targets, offsets).map { $0 - $1 }, alphas: ModelSpec.symptomForecast.ridge.alphas)
        #expect(residualFit.alpha == personalModel.severity.alpha)
        for i in 0..<design.rowCount {
            var personal = residualFit.intercept
            for j in 0..<design.columnCount { personal += residualFit.coefficients[j] * z[i, j] }
            let unclamped = offsets[i] + personal
            let served = personalModel.linearPredictors(row: design.row(i)).severity
            #expect(abs(served - unclamped) < 1e-9 * max(1, abs(unclamped)))
        }
    }

    @Test("a user with no flare day borrows the population's flare head; one never varying still trains")
    func degenerateUsers() throws {
        let users = Self.cohort()
        let today = Self.start.adding(days: 200)
        let population = try Self.population(users, today: today)
        var trainer = ModelTrainer()
        // Severity 3 every day: one flare class, and all-equal targets for the ridge.
        let flat = users[1].logs.map { log -> DailyLog in
            var copy = log
            copy.symptomSeverity = 3
            return copy
        }
        let outcome = try trainer.train(
            user: users[1].id, logs: flat, today: today, population: population, trainedAt: Self.trainedAt)
        // One class: no personal flare head can be fitted; the served head is the population's or the base rate.
        #expect(["population", "baseRate"].contains(outcome.artifact.flare.fitted))
        let metrics = try #require(outcome.metrics)
        #expect(metrics.persistenceMAE == 0)
        // Every forecast of the user's own past is 3: the whole-number forecast is 3, and so is its interval.
        let prediction = try trainer.predict(outcome.artifact, logs: flat, for: today)
        #expect(prediction.severity == 3 && prediction.interval == 3...3)
        #expect(prediction.flareProbability > 0 && prediction.flareProbability < 1)
    }

    @Test("a corrupt value makes the fit fail with an error instead of producing a model")
    func corruptValue() throws {
        let users = Self.cohort()
        let today = Self.start.adding(days: 200)
        let population = try Self.population(users, today: today)
        var logs = users[6].logs
        let index = try #require(logs.firstIndex { $0.day == Self.start.adding(days: 50) })
        logs[index].hrv = Sourced(.infinity, .health)
        var trainer = ModelTrainer()
        #expect(throws: LearningError.nonFiniteValues(stage: "the design matrix")) {
            try trainer.train(
                user: users[6].id, logs: logs, today: today, population: population, trainedAt: Self.trainedAt)
        }
        // The same trainer keeps working for the next user.
        let next = try trainer.train(
            user: users[7].id, logs: users[7].logs, today: today, population: population, trainedAt: Self.trainedAt)
        #expect(next.alternatives[.personal] != nil)
    }

    @Test("an artifact encodes to stable JSON and reads back equal")
    func artifactJSON() throws {
        let users = Self.cohort()
        let today = Self.start.adding(days: 200)
        let population = try Self.population(users, today: today)
        var trainer = ModelTrainer()
        let artifact = try trainer.train(
            user: users[2].id, logs: users[2].logs, today: today, population: population,
            trainedAt: Date(iso: "2026-03-01T03:00:00Z").addingTimeInterval(0.75)
        ).artifact
        let json = artifact.jsonData()
        #expect(json == artifact.jsonData())
        let read = try ModelArtifact(json: json)
        #expect(read == artifact)
        #expect(read.jsonData() == json)
        let text = String(decoding: json, as: UTF8.self)
        for key in [
            "\"specVersion\":4", "\"featureNames\":[", "\"standardization\":{", "\"alpha\":",
            "\"trainedAt\":\"2026-03-01T03:00:00Z\"",
            "\"trainingWindow\":{", "\"metrics\":{", "\"promoted\":", "\"reason\":", "\"source\":\"",
            "\"flare\":{", "\"bounds\":{", "\"selection\":{", "\"calibration\":{", "\"severityWinner\":",
            "\"combination\":[", "\"distribution\":{",
        ] {
            #expect(text.contains(key), "missing \(key)")
        }
        // The hand-built document is the one Foundation's encoder writes with sorted keys and ISO 8601
        // dates: the same keys, the same strings, the same numbers.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let foundation = try JSONSerialization.jsonObject(with: try encoder.encode(artifact)) as? NSDictionary
        let ours = try JSONSerialization.jsonObject(with: json) as? NSDictionary
        #expect(foundation != nil && foundation == ours)
        // Reading is ours too: a document Foundation's encoder wrote (pretty, unsorted keys) reads back equal,
        // as does one of the population model (no user, selection or bounds), and a damaged one is refused.
        encoder.outputFormatting = [.prettyPrinted]
        #expect(try ModelArtifact(json: try encoder.encode(artifact)) == artifact)
        #expect(try ModelArtifact(json: population.artifact.jsonData()) == population.artifact)
        for damaged in [
            text.replacingOccurrences(of: "\"promoted\":", with: "\"promised\":"),
            text.replacingOccurrences(of: "\"specVersion\":4", with: "\"specVersion\":4.5"),
            text.replacingOccurrences(of: "\"source\":\"", with: "\"source\":\"x"),
            String(text.dropLast()),
        ] {
            #expect(throws: LearningError.invalidArtifact(problem: "not a model artifact JSON")) {
                try ModelArtifact(json: Data(damaged.utf8))
            }
        }
    }

    @Test("predictions come from the artifact's model, and a model of another spec is refused")
    func predictions() throws {
        let users = Self.cohort()
        let today = Self.start.adding(days: 200)
        let population = try Self.population(users, today: today)
        let trainer = ModelTrainer()
        let prediction = try trainer.predict(population.artifact, logs: users[4].logs, for: today)
        #expect(prediction.source == .population)
        #expect(prediction.day == today)
        #expect((0...10).contains(prediction.severity))
        var other = population.artifact
        other.specVersion = 2
        #expect(throws: LearningError.specMismatch(artifact: "symptom-forecast v2", spec: "symptom-forecast v4")) {
            try trainer.predict(other, logs: users[4].logs, for: today)
        }
    }

    @Test("the population model is the same however users are split between workers and merged")
    func populationMergeOrder() throws {
        let users = Self.cohort()
        let today = Self.start.adding(days: 200)
        let sequential = try Self.population(users, today: today)
        var left = PopulationAccumulator(today: today)
        var right = PopulationAccumulator(today: today)
        for (index, user) in users.enumerated().reversed() {
            if index % 3 == 0 {
                left.add(user: user.id, logs: user.logs)
            } else {
                right.add(user: user.id, logs: user.logs)
            }
        }
        right.merge(left)
        let merged = try right.model(trainedAt: Self.trainedAt)
        #expect(merged.artifact.severity.alpha == sequential.artifact.severity.alpha)
        #expect(relativeError(merged.artifact.severity.coefficients, sequential.artifact.severity.coefficients) < 1e-9)
        #expect(relativeError(merged.artifact.flare.coefficients, sequential.artifact.flare.coefficients) < 1e-9)
        #expect(
            relativeError(merged.artifact.standardization.scales, sequential.artifact.standardization.scales) < 1e-12)
        #expect(merged.artifact.trainingWindow == sequential.artifact.trainingWindow)
    }

    /// The cohort pooled user by user into a flare sample of 61 rows: far fewer than the cohort pools, so the cut
    /// falls among days that have a hidden copy. With the spec and the day it was pooled for.
    static func smallSample() -> (users: [SyntheticUser], today: Day, spec: ModelSpec, forward: PopulationAccumulator) {
        let users = cohort()
        let today = start.adding(days: 200)
        var spec = ModelSpec.symptomForecast
        spec.population.flareSampleRows = 61
        var forward = PopulationAccumulator(spec: spec, today: today)
        for user in users { forward.add(user: user.id, logs: user.logs) }
        return (users, today, spec, forward)
    }

    @Test("a flare sample cut among hidden-yesterday copies keeps the same rows whatever the order of users")
    func sampleOrderWithHiddenCopies() throws {
        let (users, today, spec, forward) = Self.smallSample()
        var parts = [PopulationAccumulator(spec: spec, today: today), PopulationAccumulator(spec: spec, today: today)]
        for (index, user) in users.enumerated().reversed() { parts[index % 2].add(user: user.id, logs: user.logs) }
        parts[1].merge(parts[0])
        let kept = forward.sample.entries()
        #expect(kept.count == 61)
        #expect(Set(kept.map(\.key)).count == 61, "every row has its own key")
        let merged = parts[1].sample.entries()
        #expect(merged.map(\.key) == kept.map(\.key))
        let sameRows = merged.map(\.row) == kept.map(\.row)
        #expect(sameRows, "the kept rows differ with the order users were added in")
        // What the flare head fits: the same rows in the same order, one column per field.
        let matrix = forward.sample.matrix()
        try #require(matrix.rows == kept.count && matrix.columns == kept[0].row.count)
        let asRows = (0..<matrix.rows).map { i in (0..<matrix.columns).map { matrix[i, $0] } }
        #expect(asRows.elementsEqual(kept.map(\.row)) { $0.elementsEqual($1) { $0 == $1 || ($0.isNaN && $1.isNaN) } })
    }

    @Test("users pooled with a key limit from a full sample merge into it the very sample pooled without one")
    func sampleKeyLimit() throws {
        let (users, today, spec, forward) = Self.smallSample()
        var total = PopulationAccumulator(spec: spec, today: today)
        var unlimited = PopulationAccumulator(spec: spec, today: today)
        var limited = PopulationAccumulator(spec: spec, today: today)
        let half = users.count / 2
        for user in users[..<half] { total.add(user: user.id, logs: user.logs) }
        limited.sampleKeyLimit = try #require(total.sampleKeyBound, "the first half fills the sample")
        for user in users[half...] {
            unlimited.add(user: user.id, logs: user.logs)
            limited.add(user: user.id, logs: user.logs)
        }
        // The limit leaves rows out (the point of it), and none that the merged sample keeps.
        #expect(limited.sample.entries().count < unlimited.sample.entries().count)
        total.merge(limited)
        let merged = total.sample.entries()
        let kept = forward.sample.entries()
        #expect(merged.map(\.key) == kept.map(\.key))
        let sameRows = merged.map(\.row) == kept.map(\.row)
        #expect(sameRows, "the merged sample kept other rows")
    }

    @Test("a population pooled from the days' values alone is the one pooled from the logs")
    func populationFromValues() throws {
        let users = Self.cohort()
        let today = Self.start.adding(days: 200)
        var fromValues = PopulationAccumulator(today: today)
        for user in users { fromValues.add(user: user.id, values: user.logs.map(DayValues.init)) }
        let population = try Self.population(users, today: today)
        #expect(try fromValues.model(trainedAt: Self.trainedAt).artifact == population.artifact)
    }

    @Test("a single pass that builds each user's features once trains the same models as two passes")
    func singlePass() throws {
        let users = Self.cohort()
        let today = Self.start.adding(days: 200)
        let builder = FeatureBuilder(spec: .symptomForecast)
        var fromDesigns = PopulationAccumulator(today: today)
        for user in users {
            fromDesigns.add(user: user.id, design: builder.designMatrix(logs: user.logs, today: today))
        }
        let population = try Self.population(users, today: today)
        let single = try fromDesigns.model(trainedAt: Self.trainedAt)
        #expect(single.artifact == population.artifact)
        var trainer = ModelTrainer()
        let design = builder.designMatrix(logs: users[8].logs, today: today)
        let once = try trainer.train(
            user: users[8].id, design: design, today: today, population: population, trainedAt: Self.trainedAt)
        let twice = try trainer.train(
            user: users[8].id, logs: users[8].logs, today: today, population: population, trainedAt: Self.trainedAt)
        #expect(once == twice)
    }

    @Test("the population's flare sample keeps at most its capacity of rows")
    func boundedSample() {
        var sample = BottomKSample(capacity: 3, width: 1, seed: 1)
        let user = UserID("u")!
        for day in 0..<100 {
            let key = BottomKSample.key(seed: 1, userHash: BottomKSample.hash(user), day: Day(ordinal: day))
            sample.insert(key: key, row: [Double(day)])
        }
        let kept = sample.entries()
        #expect(kept.count == 3)
        let smallest = (0..<100).map {
            BottomKSample.key(seed: 1, userHash: BottomKSample.hash(user), day: Day(ordinal: $0))
        }.sorted().prefix(
            3)
        #expect(kept.map(\.key) == Array(smallest))
    }

    @Test("the plain fit of an exported matrix matches the personal pipeline's ridge on the same rows")
    func plainFit() throws {
        let users = Self.cohort()
        let today = Self.start.adding(days: 200)
        var trainer = ModelTrainer()
        // A user with flare days, so both heads are fitted.
        let flaring = try #require(
            users.first { user in
                let targets = trainer.trainingDesign(logs: user.logs, today: today)?.targets ?? []
                return targets.contains { $0 >= 7 } && targets.contains { $0 < 7 }
            })
        let design = try #require(trainer.trainingDesign(logs: flaring.logs, today: today))
        let summary = try trainer.fit(try DesignMatrix(csv: design.csv()))
        let standardization = Standardization(fitting: design.values)
        var z = Matrix(rows: 0, columns: 0)
        standardization.apply(design.values, into: &z)
        var ridge = RidgeWorkspace()
        let direct = try ridge.fitLeaveOneOut(x: z, y: design.targets, alphas: ModelSpec.symptomForecast.ridge.alphas)
        #expect(summary.alpha == direct.alpha)
        #expect(relativeError(summary.severityCoefficients, direct.coefficients) < 1e-12)
        #expect(summary.flareCoefficients != nil)
    }

    @Test("fitting many matrices on several workers gives each matrix the fit one worker gives it, in input order")
    func fitAllKeepsOrder() async throws {
        let today = Self.start.adding(days: 200)
        let trainer = ModelTrainer()
        let designs = Self.cohort().compactMap { trainer.trainingDesign(logs: $0.logs, today: today) }
        try #require(designs.count >= 8)
        var one = ModelTrainer()
        let expected = try designs.map { design in try one.fit(design) }
        #expect(Set(expected.map(\.severityIntercept)).count == designs.count, "every matrix has a fit of its own")
        for workers in [2, 3] {
            let fitted = try await ModelTrainer.fitAll(designs, workers: workers)
            try #require(fitted.count == expected.count)
            for (index, (fit, reference)) in zip(fitted, expected).enumerated() {
                #expect(fit.alpha == reference.alpha, "matrix \(index), \(workers) workers")
                #expect(
                    relativeError(fit.severityCoefficients, reference.severityCoefficients) < 1e-12,
                    "matrix \(index), \(workers) workers")
                #expect((fit.flareCoefficients == nil) == (reference.flareCoefficients == nil))
            }
        }
    }
}
