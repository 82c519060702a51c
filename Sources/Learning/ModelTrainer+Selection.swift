import Domain
internal import Foundation
internal import LearningKernels

// One file for one step: selection's named steps (folds, fits, scores, judgements, the served artifacts) pass one
// another private types declared here; split, those types would have to be visible to the whole module.

/// The rows of one rolling-origin fold.
private struct Fold {
    var origin: Day
    /// Rows before `split` (days before `origin`) train; `tests` are the usable rows of the fold's days.
    var split: Int
    var usableBefore: Int
    var tests: [Int]
    var bounds: ModelArtifact.FeatureBounds?
}

/// A selection's rows, prepared once: for the served model (every row) and for the folds (the imputation and
/// standardization of the rows before the first fold), with the folds.
private struct PreparedFolds {
    var design: DesignMatrix
    var imputation: [Double]
    var x: DesignMatrix
    var standardization: Standardization
    var bounds: ModelArtifact.FeatureBounds?
    /// Whether the user has the usable days the personal procedure needs.
    var fitsPersonal: Bool
    var foldImputation: [Double]
    var x0: DesignMatrix
    var foldStandardization: Standardization
    var folds: [Fold]
}

/// The personal procedure's fits: the folds scored (those it is judged on, or every fold with days when it is
/// not judged), its model on each, and its model on every row, as it would serve.
private struct PersonalFits {
    var scored: [Fold]
    var scoresPersonal: Bool
    var folds: [PersonalHeads]
    var served: PersonalHeads?
}

/// Every candidate's tallies on the fold days, by position (`names`), with the days, their flare labels and the
/// forecasts the combination learns from.
private struct CandidateScores {
    var names: [(severity: String?, flare: String?)] = []
    var severityTallies: [Tally] = []
    var flareTallies: [Tally] = []
    var labels: [Double] = []
    var days: [Day] = []
    var evidence = FoldForecasts()
    var folds = 0
}

/// The severity's judgement: the combination and the smoothing constant it uses, every candidate's score, and
/// the reason so far.
private struct SeverityJudgement {
    var combined: (weights: [CombinationWeight], distribution: ForecastDistribution, absoluteError: Double)
    var smoothingIndex: Int
    var scores: [SelectionRecord.CandidateScore]
    var mae: [String: Double]
    var why: String
}

/// The flare head's judgement: the winner, its calibration, every candidate's score, and the whole reason.
private struct FlareJudgement {
    var winner: String
    var calibration: SelectionRecord.Calibration
    var scores: [SelectionRecord.FlareCandidateScore]
    var loss: [String: Double]
    var why: String
}

/// The severity heads that read one design column and need no fit: the target the day before (persistence), its
/// rolling mean, its long-run exponential mean and its exponential smoothing with each constant the cohort may
/// choose. Every fold scores these heads and the served artifact serves them, so both take them from here.
private struct BaselineHeads {
    var persistence: RawHead
    var recentMean: RawHead
    var longMean: RawHead
    /// One for each of `spec.combination.smoothingConstants`, in their order.
    var smoothing: [RawHead]
}

/// Sums of a candidate's errors over the scored rows.
private struct Tally {
    var absoluteError = 0.0
    var logLoss = 0.0
    var brier = 0.0
    var logits: [Double] = []
}

extension ModelTrainer {
    /// Severity candidates in the order ties are broken (the simpler wins a tie).
    static let severityOrder = [
        "persistence", "recentMean", "smoothing", "longMean", "population", "personal", "combined",
    ]
    static let flareOrder = ["baseRate", "population", "personal"]
    /// Newton steps of a fold model's flare head: the first fold's from the prior, each later fold's from the
    /// fold before (a few more rows, a nearby optimum). A fold model is judged, never served. On the benchmark
    /// cohort (1,000 users × 365 days) these counts moved the personal candidate's fold log-loss by 0.001 on
    /// average from a converged first fold and three later steps, served the same severity kinds and one
    /// flare head differently, and left `pipeline evaluate`'s figures unchanged. The served head is always
    /// converged to the spec's tolerance.
    static let firstFoldNewtonSteps = 4
    static let foldNewtonSteps = 2

    /// Selects what the user is served (DESIGN §5), in named steps: the user's rows prepared and cut into
    /// rolling-origin folds (`prepareFolds`), the personal procedure fitted on each fold and on every row
    /// (`fitPersonalModels`), every candidate scored on the same fold days (`scoreCandidates`), the severity
    /// combination and the flare head judged on those scores (`judgeSeverity`, `judgeFlare`), and the served
    /// artifact built with the alternatives beside it (`servedArtifacts`).
    mutating func select(
        user: UserID, design: DesignMatrix, today: Day, population: PopulationModel, incumbent: ModelArtifact?,
        trainedAt: Date
    ) throws(LearningError) -> TrainingOutcome {
        let folds = prepareFolds(design: design, today: today, population: population)
        let personal = try fitPersonalModels(folds, population: population)
        let scores = scoreCandidates(
            folds, personal: personal, user: user, population: population, incumbent: incumbent, trainedAt: trainedAt)
        let severity = Self.judgeSeverity(scores, folds: folds, population: population, spec: spec)
        let flare = Self.judgeFlare(
            scores, incumbent: incumbent, pooled: population.isPooled, why: severity.why, spec: spec)
        return servedArtifacts(
            folds, personal: personal, scores: scores, severity: severity, flare: flare, user: user,
            population: population, trainedAt: trainedAt)
    }

    /// The user's rows prepared for the served model (every row: its imputation, bounds and standardization)
    /// and for the folds, which share one imputation and standardization from the rows before the first fold,
    /// so no fold reads anything of its own days or later; and the folds.
    /// Every candidate's forecasts on the user's fold days and nothing more: `select`'s first three steps, without
    /// the served personal fit and the flare heads, which only the served artifact needs. What
    /// `CohortCalibration` learns from.
    mutating func foldForecasts(
        user: UserID, design: DesignMatrix, today: Day, population: PopulationModel
    ) throws(LearningError) -> FoldForecasts {
        skipsFlareHeads = true
        defer { skipsFlareHeads = false }
        let folds = prepareFolds(design: design, today: today, population: population)
        let personal = try fitPersonalModels(folds, population: population, servedFit: false)
        return scoreCandidates(
            folds, personal: personal, user: user, population: population, incumbent: nil,
            trainedAt: Date(timeIntervalSince1970: 0)
        ).evidence
    }

    private func prepareFolds(design: DesignMatrix, today: Day, population: PopulationModel) -> PreparedFolds {
        let spec = self.spec
        let p = design.columnCount
        let n = design.rowCount
        let imputation = builder.imputation(for: design)
        let x = design.imputed(with: imputation)
        let standardization = n >= 1 ? Standardization(fitting: x.values) : population.artifact.standardization
        let bounds = n >= 1 ? spec.openingTargetFeatures(Self.bounds(of: x.values, rows: 0..<n)) : nil

        let windowStart = today.adding(days: -spec.training.holdoutDays)
        let firstSplit = design.days.firstIndex { $0 >= windowStart } ?? n
        let early = design.rows(0..<firstSplit)
        let foldImputation = builder.imputation(for: early)
        let x0 = design.imputed(with: foldImputation)
        let foldStandardization =
            firstSplit >= 2
            ? Standardization(fitting: x0.rows(0..<firstSplit).values)
            : Standardization(means: foldImputation, scales: Array(repeating: 1, count: p))
        var folds: [Fold] = []
        // Each fold's bounds extend the previous fold's by the rows between their origins: one pass in all.
        var running: ModelArtifact.FeatureBounds?
        var bounded = 0
        for k in 0..<spec.training.folds {
            let origin = windowStart.adding(days: k * spec.training.foldDays)
            let end = origin.adding(days: spec.training.foldDays)
            let split = design.days.firstIndex { $0 >= origin } ?? n
            let tests = (split..<n).filter { !design.isHidden($0) && design.days[$0] < end }
            let usableBefore = (0..<split).filter { !design.isHidden($0) }.count
            if split > bounded {
                running = Self.bounds(of: x0.values, rows: bounded..<split, extending: running)
                bounded = split
            }
            folds.append(
                Fold(
                    origin: origin, split: split, usableBefore: usableBefore, tests: tests,
                    bounds: running.map(spec.openingTargetFeatures)))
        }
        return PreparedFolds(
            design: design, imputation: imputation, x: x, standardization: standardization, bounds: bounds,
            fitsPersonal: design.usableRowCount >= spec.training.minimumUsableDays, foldImputation: foldImputation,
            x0: x0, foldStandardization: foldStandardization, folds: folds)
    }

    /// The personal procedure on the folds and on every row. The first scored fold's model — the penalty by
    /// leave-one-out and the flare head — is fitted on the rows before it, and gives the later folds their
    /// penalty and first start, so no fold model depends on its own days or later ones. When that fit fails
    /// numerically (few early rows, standardized on fewer), the personal procedure is not judged, so it cannot
    /// serve; every other candidate still is. The model as it would serve takes every row, its own penalty by
    /// leave-one-out, and the flare head started from the last fold's (nearly all the same rows), so Newton
    /// needs a few steps, not a descent.
    /// Without `servedFit` the model as it would serve is not fitted.
    private mutating func fitPersonalModels(
        _ prepared: PreparedFolds, population: PopulationModel, servedFit: Bool = true
    ) throws(LearningError) -> PersonalFits {
        let minimum = spec.training.minimumUsableDays
        let folds = prepared.folds
        let foldStandardization = prepared.foldStandardization
        let personalFolds =
            !prepared.fitsPersonal ? [] : folds.filter { $0.usableBefore >= minimum && !$0.tests.isEmpty }
        var origin: PersonalHeads?
        if let first = personalFolds.first?.split {
            let early = prepared.x0.rows(0..<first)
            origin = try? fitPersonal(
                x: early.values, targets: early.targets, rows: first, standardization: foldStandardization,
                population: population, alpha: nil, start: nil, iterations: Self.firstFoldNewtonSteps)
        }
        let scoresPersonal = origin != nil
        let scored = scoresPersonal ? personalFolds : folds.filter { !$0.tests.isEmpty }

        let foldPersonal: [PersonalHeads]
        if let origin {
            foldPersonal = try fitFolds(
                x0: prepared.x0, splits: scored.map(\.split), standardization: foldStandardization,
                population: population, origin: origin)
        } else {
            foldPersonal = []
        }

        var personal: PersonalHeads?
        if prepared.fitsPersonal && servedFit {
            let start = foldPersonal.last { $0.flareSolution != nil }.map { heads -> LogisticSolution in
                let delta = RawHead(
                    coefficients: heads.flareSolution!.coefficients, intercept: heads.flareSolution!.intercept,
                    standardization: foldStandardization
                ).on(prepared.standardization)
                return LogisticSolution(coefficients: delta.coefficients, intercept: delta.intercept, iterations: 0)
            }
            let x = prepared.x
            personal = try fitPersonal(
                x: x.values, targets: x.targets, rows: prepared.design.rowCount,
                standardization: prepared.standardization, population: population, alpha: nil, start: start,
                iterations: spec.flare.maximumIterations)
        }
        return PersonalFits(scored: scored, scoresPersonal: scoresPersonal, folds: foldPersonal, served: personal)
    }

    /// Every candidate scored on the same rows, the fold days. A fold's candidates are each model with the names
    /// it is scored under; they are the same kinds in every fold, so tallies go by position, and every model but
    /// the incumbent is the fold's and shares its standardized row.
    private func scoreCandidates(
        _ prepared: PreparedFolds, personal: PersonalFits, user: UserID, population: PopulationModel,
        incumbent: ModelArtifact?, trainedAt: Date
    ) -> CandidateScores {
        let spec = self.spec
        let design = prepared.design
        let p = design.columnCount
        let baselines = baselineHeads(columnCount: p)
        let pooled = population.isPooled
        let populationSeverity = population.severityHead
        let populationFlare = population.flareHead
        let range = spec.target.minimum...spec.target.maximum
        let constants = spec.combination.smoothingConstants
        var scores = CandidateScores()
        var forecasts: [[Double]] = []
        var row = [Double](repeating: 0, count: p)
        var z: [Double] = []
        var incumbentZ: [Double] = []
        for (index, fold) in personal.scored.enumerated() {
            let rate = Self.flareRate(design, rows: 0..<fold.split, threshold: spec.flare.threshold)
            let baseRate = RawHead.constant(logit(rate), count: p)
            func artifact(_ source: ModelSource, _ severity: RawHead, _ flare: RawHead) -> ModelArtifact {
                Self.makeArtifact(
                    spec: spec, user: user, source: source, imputation: prepared.foldImputation, bounds: fold.bounds,
                    standardization: prepared.foldStandardization, severity: severity, flare: flare, alpha: 0,
                    flareFitted: "", trainedAt: trainedAt)
            }
            var candidates: [(model: ModelArtifact, severity: String?, flare: String?)] = [
                (artifact(.persistence, baselines.persistence, baseRate), "persistence", "baseRate"),
                (artifact(.recentMean, baselines.recentMean, baseRate), "recentMean", nil),
                (artifact(.smoothing, baselines.longMean, baseRate), "longMean", nil),
            ]
            for (constant, head) in zip(constants, baselines.smoothing) {
                candidates.append((artifact(.smoothing, head, baseRate), Self.smoothingName(constant), nil))
            }
            if pooled {
                candidates.append(
                    (artifact(.population, populationSeverity, populationFlare), "population", "population"))
            }
            if personal.scoresPersonal {
                let heads = personal.folds[index]
                candidates.append((artifact(.personal, heads.severity, heads.flare), "personal", "personal"))
            }
            let foldModels = candidates.count
            if let incumbent { candidates.append((incumbent, "incumbent", "incumbent")) }
            if scores.names.isEmpty {
                scores.names = candidates.map { ($0.severity, $0.flare) }
                scores.severityTallies = Array(repeating: Tally(), count: candidates.count)
                scores.flareTallies = scores.severityTallies
                forecasts = Array(repeating: [], count: candidates.count)
            }
            for i in fold.tests {
                for j in 0..<p { row[j] = design.value(row: i, column: j) }
                candidates[0].model.standardize(row: row, into: &z)
                let target = design.targets[i]
                let label = target >= spec.flare.threshold ? 1.0 : 0.0
                scores.labels.append(label)
                scores.days.append(design.days[i])
                scores.evidence.targets.append(target)
                scores.evidence.folds.append(index)
                // By index: a candidate taken out of the array would be a copy of its artifact, every row.
                for slot in candidates.indices {
                    let severity: Double
                    let eta: Double
                    if slot < foldModels && candidates[slot].flare == nil {
                        (severity, eta) = (candidates[slot].model.severityPredictor(standardized: z), 0)
                    } else if slot < foldModels {
                        (severity, eta) = candidates[slot].model.linearPredictors(standardized: z)
                    } else {
                        candidates[slot].model.standardize(row: row, into: &incumbentZ)
                        (severity, eta) = candidates[slot].model.linearPredictors(standardized: incumbentZ)
                    }
                    if candidates[slot].severity != nil {
                        let value = min(max(severity, range.lowerBound), range.upperBound)
                        forecasts[slot].append(value)
                        scores.severityTallies[slot].absoluteError +=
                            abs(value.rounded(.toNearestOrAwayFromZero) - target)
                    }
                    if candidates[slot].flare != nil {
                        let probability = sigmoid(eta)
                        scores.flareTallies[slot].logLoss += crossEntropy(probability, label)
                        scores.flareTallies[slot].brier += (probability - label) * (probability - label)
                        scores.flareTallies[slot].logits.append(eta)
                    }
                }
            }
        }
        // The forecasts by name, for the combination.
        for (slot, name) in scores.names.enumerated() {
            guard let severity = name.severity else { continue }
            if let column = constants.firstIndex(where: { Self.smoothingName($0) == severity }) {
                if scores.evidence.smoothing.isEmpty {
                    scores.evidence.smoothing = Array(repeating: [], count: constants.count)
                }
                scores.evidence.smoothing[column] = forecasts[slot]
            } else if let candidate = CombinationCandidate(rawValue: severity) {
                scores.evidence.others[candidate] = forecasts[slot]
            }
        }
        scores.folds = personal.scored.count
        return scores
    }

    /// The baseline heads on a design of `columnCount` columns.
    private func baselineHeads(columnCount p: Int) -> BaselineHeads {
        let columns = baselineColumns
        let exponentialMean = { (alpha: Double) in RawHead.unit(column: spec.exponentialMeanColumn(alpha)!, of: p) }
        return BaselineHeads(
            persistence: .unit(column: columns.persistence, of: p),
            recentMean: .unit(column: columns.recentMean, of: p),
            longMean: exponentialMean(spec.combination.longMean),
            smoothing: spec.combination.smoothingConstants.map(exponentialMean))
    }

    /// Severity: the combination, its weights held toward the cohort's, judged out of fold; every candidate's
    /// mean error, and the reason in words.
    private static func judgeSeverity(
        _ scores: CandidateScores, folds prepared: PreparedFolds, population: PopulationModel, spec: ModelSpec
    ) -> SeverityJudgement {
        let constants = spec.combination.smoothingConstants
        let days = scores.labels.count
        let count = Double(max(days, 1))
        let cohort = population.cohort ?? .initial(spec)
        let smoothingIndex =
            constants.firstIndex(of: cohort.smoothing) ?? constants.firstIndex(of: spec.combination.defaultSmoothing)!
        let combined = Self.combine(
            evidence: scores.evidence, design: prepared.design, cohort: cohort, smoothing: smoothingIndex,
            smoothingColumn: spec.exponentialMeanColumn(constants[smoothingIndex])!, pooled: population.isPooled,
            spec: spec)
        let smoothingName = Self.smoothingName(constants[smoothingIndex])
        var severityTally = Dictionary(
            uniqueKeysWithValues: zip(scores.names, scores.severityTallies).compactMap { name, tally in
                name.severity.map { ($0 == smoothingName ? "smoothing" : $0, tally) }
            })
        if days > 0 { severityTally["combined"] = Tally(absoluteError: combined.absoluteError) }
        let severityScores = (Self.severityOrder + ["incumbent"]).compactMap { name in
            severityTally[name].map {
                SelectionRecord.CandidateScore(candidate: name, meanAbsoluteError: $0.absoluteError / count)
            }
        }
        let mae = Dictionary(uniqueKeysWithValues: severityScores.map { ($0.candidate, $0.meanAbsoluteError) })
        var why = Self.describe(combined.weights, smoothing: constants[smoothingIndex])
        if days == 0 {
            why += " (the cohort's weights: no scored day in the last \(spec.training.holdoutDays) days)"
        } else {
            let others = severityScores.filter { $0.candidate != "combined" }.map {
                "\($0.candidate) \(Self.format($0.meanAbsoluteError))"
            }
            why +=
                ", fitted on \(days) day\(days == 1 ? "" : "s") in \(scores.folds) rolling-origin fold"
                + "\(scores.folds == 1 ? "" : "s") and held toward the cohort's weights as "
                + "\(Self.format(cohort.priorPseudoDays, digits: 0)) days; out of fold its error is "
                + "\(Self.format(mae["combined"]!)) (\(others.joined(separator: ", ")))"
        }
        return SeverityJudgement(
            combined: combined, smoothingIndex: smoothingIndex, scores: severityScores, mae: mae, why: why)
    }

    /// Flare: the best log-loss, the incumbent's head within its margin; then calibrated on its out-of-fold
    /// logits. Adds the flare's part of the reason to the severity's `why`.
    private static func judgeFlare(
        _ scores: CandidateScores, incumbent: ModelArtifact?, pooled: Bool, why severityWhy: String, spec: ModelSpec
    ) -> FlareJudgement {
        let days = scores.labels.count
        let count = Double(max(days, 1))
        let flareTally = Dictionary(
            uniqueKeysWithValues: zip(scores.names, scores.flareTallies).compactMap { name, tally in
                name.flare.map { ($0, tally) }
            })
        let flareScores = (Self.flareOrder + ["incumbent"]).compactMap { name in
            flareTally[name].map {
                SelectionRecord.FlareCandidateScore(
                    candidate: name, logLoss: $0.logLoss / count, brier: $0.brier / count)
            }
        }
        let loss = Dictionary(uniqueKeysWithValues: flareScores.map { ($0.candidate, $0.logLoss) })
        var flareWinner: String
        if days == 0 {
            flareWinner = pooled ? "population" : "baseRate"
        } else {
            flareWinner = Self.flareOrder.filter { loss[$0] != nil }.min { loss[$0]! < loss[$1]! }!
            if let kept = incumbent?.flare.fitted, kept != flareWinner, let score = loss[kept],
                score <= loss[flareWinner]! + spec.selection.flareMargin
            {
                flareWinner = kept
            }
        }
        let calibration =
            days == 0
            ? SelectionRecord.Calibration.identity
            : Self.calibrate(
                logits: flareTally[flareWinner]!.logits, labels: scores.labels,
                pull: spec.selection.calibrationPseudoDays)
        var why = severityWhy
        if days > 0 {
            why +=
                "; flare head \(flareWinner), log-loss \(Self.format(loss[flareWinner]!)), calibrated with slope "
                + Self.format(calibration.slope)
        }
        return FlareJudgement(winner: flareWinner, calibration: calibration, scores: flareScores, loss: loss, why: why)
    }

    /// The served artifact: the combination of the candidates refitted on every row, with the user's own
    /// imputation and bounds; and each other servable kind as it would be served, beside it.
    private func servedArtifacts(
        _ prepared: PreparedFolds, personal fits: PersonalFits, scores: CandidateScores,
        severity: SeverityJudgement, flare: FlareJudgement, user: UserID, population: PopulationModel,
        trainedAt: Date
    ) -> TrainingOutcome {
        let spec = self.spec
        let design = prepared.design
        let p = design.columnCount
        let n = design.rowCount
        let baselines = baselineHeads(columnCount: p)
        let pooled = population.isPooled
        let personal = fits.served
        let populationSeverity = population.severityHead
        let days = scores.labels.count
        let combined = severity.combined
        let mae = severity.mae
        let loss = flare.loss
        let flareWinner = flare.winner
        let userRate = RawHead.constant(
            logit(Self.flareRate(design, rows: 0..<n, threshold: spec.flare.threshold)), count: p)
        func severityHead(_ kind: ModelSource) -> (head: RawHead, alpha: Double) {
            switch kind {
            case .personal: (personal!.severity, personal!.alpha)
            case .population: (populationSeverity, population.artifact.severity.alpha)
            case .persistence: (baselines.persistence, 0)
            case .recentMean: (baselines.recentMean, 0)
            case .smoothing: (baselines.smoothing[severity.smoothingIndex], 0)
            case .combined: preconditionFailure("a combination is not a candidate of itself")
            }
        }
        let flareHead: RawHead
        switch flareWinner {
        case "personal": flareHead = personal!.flare
        case "population": flareHead = population.flareHead
        default: flareHead = userRate
        }
        let record = SelectionRecord(
            first: scores.days.min(), last: scores.days.max(), days: days, folds: scores.folds,
            severity: severity.scores, flare: flare.scores, severityWinner: .combined, flareWinner: flareWinner,
            calibration: flare.calibration, reason: "serving: " + flare.why)
        let servedFlare = flareHead.calibrated(flare.calibration)
        func artifact(_ kind: ModelSource, _ head: RawHead, alpha: Double) -> ModelArtifact {
            var model = Self.makeArtifact(
                spec: spec, user: user, source: kind, imputation: prepared.imputation, bounds: prepared.bounds,
                standardization: prepared.standardization, severity: head, flare: servedFlare, alpha: alpha,
                flareFitted: flareWinner == "personal" ? personal!.flareFitted : flareWinner, trainedAt: trainedAt)
            if kind == .personal && pooled { model.severity.shrunkToward = .population }
            if n > 0 {
                model.trainingWindow = .init(
                    first: design.days[0], last: design.days[n - 1], usableDays: design.usableRowCount)
            }
            model.promoted = true
            // The other kinds are served as whole numbers too, so that they compare with the combination.
            model.distribution = combined.distribution
            return model
        }
        var head = RawHead.constant(0, count: p)
        var alpha = 0.0
        for weight in combined.weights where weight.weight != 0 {
            let (candidate, penalty) =
                switch weight.candidate {
                case .smoothing: severityHead(.smoothing)
                case .longMean: (baselines.longMean, 0.0)
                case .population: severityHead(.population)
                case .personal: severityHead(.personal)
                }
            head = head + candidate.scaled(by: weight.weight)
            if weight.candidate == .personal { alpha = penalty }
        }
        var served = artifact(.combined, head, alpha: alpha)
        served.combination = combined.weights
        served.distribution = combined.distribution
        served.selection = record
        if days > 0, let populationError = mae["population"], let populationLoss = loss["population"] {
            served.metrics = HoldoutMetrics(
                first: record.first!, last: record.last!, days: days, modelMAE: mae["combined"]!,
                persistenceMAE: mae["persistence"]!, populationMAE: populationError, smoothingMAE: mae["smoothing"],
                flareLogLoss: loss[flareWinner]!, populationFlareLogLoss: populationLoss,
                flareDays: Int(scores.labels.reduce(0, +)))
        }
        served.reason = record.reason
        var alternatives: [ModelSource: ModelArtifact] = [.combined: served]
        let kinds: [ModelSource] = [.persistence, .recentMean, .smoothing, .population, .personal]
        for kind in kinds where (kind != .personal || personal != nil) && (kind != .population || pooled) {
            let (candidateHead, penalty) = severityHead(kind)
            alternatives[kind] = artifact(kind, candidateHead, alpha: penalty)
        }
        return TrainingOutcome(artifact: served, alternatives: alternatives, evidence: scores.evidence)
    }
}
