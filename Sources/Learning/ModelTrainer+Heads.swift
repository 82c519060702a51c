import Domain
internal import Foundation
internal import LearningKernels

/// A linear predictor in the design matrix's own units, `value = constant + Σ perUnit[j]·x[j]`, so heads
/// fitted on different standardizations (the user's, a fold's, the population's) add up and convert.
struct RawHead: Sendable, Hashable {
    var perUnit: [Double]
    var constant: Double

    init(perUnit: [Double], constant: Double) {
        self.perUnit = perUnit
        self.constant = constant
    }

    /// The head `intercept + coefficients·z`, `z = (x − means) / scales`.
    init(coefficients: [Double], intercept: Double, standardization: Standardization) {
        perUnit = coefficients
        constant = intercept
        for j in 0..<coefficients.count {
            perUnit[j] = coefficients[j] / standardization.scales[j]
            constant -= perUnit[j] * standardization.means[j]
        }
    }

    /// `x[column]` itself.
    static func unit(column: Int, of count: Int) -> RawHead {
        var perUnit = [Double](repeating: 0, count: count)
        perUnit[column] = 1
        return RawHead(perUnit: perUnit, constant: 0)
    }

    static func constant(_ value: Double, count: Int) -> RawHead {
        RawHead(perUnit: Array(repeating: 0, count: count), constant: value)
    }

    static func + (lhs: RawHead, rhs: RawHead) -> RawHead {
        RawHead(perUnit: zip(lhs.perUnit, rhs.perUnit).map { $0 + $1 }, constant: lhs.constant + rhs.constant)
    }

    func scaled(by factor: Double) -> RawHead {
        RawHead(perUnit: perUnit.map { $0 * factor }, constant: constant * factor)
    }

    /// `intercept + slope·self`.
    func calibrated(_ calibration: SelectionRecord.Calibration) -> RawHead {
        RawHead(
            perUnit: perUnit.map { $0 * calibration.slope },
            constant: calibration.intercept + calibration.slope * constant)
    }

    /// The same head on standardized features.
    func on(_ standardization: Standardization) -> (coefficients: [Double], intercept: Double) {
        var coefficients = perUnit
        var intercept = constant
        for j in 0..<perUnit.count {
            coefficients[j] = perUnit[j] * standardization.scales[j]
            intercept += perUnit[j] * standardization.means[j]
        }
        return (coefficients, intercept)
    }
}

/// One fit of the personal procedure: heads in raw units, the penalty, and the flare solution (a warm start
/// for the next fold).
struct PersonalHeads: Sendable {
    var severity: RawHead
    var flare: RawHead
    var flareFitted: String
    var alpha: Double
    var flareSolution: LogisticSolution?
}

extension PopulationModel {
    /// The population's heads in the design matrix's units.
    var severityHead: RawHead {
        RawHead(
            coefficients: artifact.severity.coefficients, intercept: artifact.severity.intercept,
            standardization: artifact.standardization)
    }

    var flareHead: RawHead {
        RawHead(
            coefficients: artifact.flare.coefficients, intercept: artifact.flare.intercept,
            standardization: artifact.standardization)
    }
}

extension ModelTrainer {
    /// The personal procedure on raw imputed rows `x` (the first `rows` of them): standardize, ridge on the
    /// residual of the population (or on the target itself when there is no pooled population), flare head
    /// with the population's logit as offset. `alpha: nil` chooses it by exact leave-one-out.
    mutating func fitPersonal(
        x: Matrix, targets: [Double], rows: Int, standardization: Standardization, population: PopulationModel,
        alpha: Double?, start: LogisticSolution?, iterations: Int
    ) throws(LearningError) -> PersonalHeads {
        let p = x.columns
        standardization.apply(x, into: &standardized)
        let pooled = population.isPooled
        population.linearPredictors(x, severity: &offsets, flare: &flareOffsets)
        residuals.resize(to: rows)
        for i in 0..<rows { residuals[i] = targets[i] - (pooled ? offsets[i] : 0) }
        let fit =
            if let alpha {
                try ridge.fit(x: standardized, y: residuals, alpha: alpha)
            } else {
                try ridge.fitLeaveOneOut(x: standardized, y: residuals, alphas: spec.ridge.alphas)
            }
        let prior = pooled ? population.severityHead : RawHead.constant(0, count: p)
        let severity =
            prior + RawHead(coefficients: fit.coefficients, intercept: fit.intercept, standardization: standardization)
        let labels = targets.map { $0 >= spec.flare.threshold ? 1.0 : 0.0 }
        let flares = labels.reduce(0, +)
        let flarePrior =
            pooled ? population.flareHead : RawHead.constant(logit((flares + 0.5) / (Double(rows) + 1)), count: p)
        guard flares > 0 && flares < Double(rows), !skipsFlareHeads else {
            return PersonalHeads(
                severity: severity, flare: flarePrior, flareFitted: pooled ? "population" : "baseRate",
                alpha: fit.alpha,
                flareSolution: nil)
        }
        // Flare days separable by the features in a short history: Newton's weights vanish and its system
        // is singular. A warm start near such a solution starts over from the prior; when that fails too the
        // head is the prior's, as for a user with one class of label.
        guard
            let solution = try flareHead(
                x: standardized, labels: labels, offset: pooled ? flareOffsets : nil, start: start,
                warmIterations: iterations, coldIterations: iterations)
        else {
            return PersonalHeads(
                severity: severity, flare: flarePrior, flareFitted: pooled ? "population" : "baseRate",
                alpha: fit.alpha, flareSolution: nil)
        }
        let delta = RawHead(
            coefficients: solution.coefficients, intercept: solution.intercept, standardization: standardization)
        return PersonalHeads(
            severity: severity, flare: pooled ? flarePrior + delta : delta, flareFitted: "personal", alpha: fit.alpha,
            flareSolution: solution)
    }

    /// The personal procedure on each fold's training rows (the first `splits[k]` rows of `x0`), on the
    /// folds' shared standardization and with the penalty `origin` chose on the first fold's rows; the first
    /// fold's model is `origin` itself. The ridge does not rebuild `XᵀX` per fold: one pass over the rows adds
    /// each block between two origins to running sums, and each later fold solves from them. Its flare head
    /// starts from the previous fold's solution and takes at most `foldNewtonSteps` Newton steps.
    mutating func fitFolds(
        x0: DesignMatrix, splits: [Int], standardization: Standardization, population: PopulationModel,
        origin: PersonalHeads
    ) throws(LearningError) -> [PersonalHeads] {
        let alpha = origin.alpha
        let p = x0.columnCount
        let n = x0.rowCount
        let pooled = population.isPooled
        standardization.apply(x0.values, into: &standardized)
        let z = standardized
        population.linearPredictors(x0.values, severity: &offsets, flare: &flareOffsets)
        let severityOffsets = offsets
        let logitOffsets = flareOffsets
        let prior = pooled ? population.severityHead : RawHead.constant(0, count: p)
        let flarePrior = population.flareHead

        var gram = Matrix(rows: p, columns: p)
        var blockGram = Matrix(rows: 0, columns: 0)
        var gramScratch: [Double] = []
        var block = Matrix(rows: 0, columns: 0)
        var sumZ = [Double](repeating: 0, count: p)
        var sumZR = [Double](repeating: 0, count: p)
        var sumR = 0.0
        var done = 0
        var results: [PersonalHeads] = []
        var start = origin.flareSolution
        for (fold, split) in splits.enumerated() {
            // Add rows done..<split to the running sums.
            let rows = split - done
            if rows > 0 {
                block.reshape(rows: rows, columns: p)
                for j in 0..<p {
                    for i in 0..<rows { block.storage[j * rows + i] = z.storage[j * n + done + i] }
                }
                LinearAlgebra.gram(block, into: &blockGram, scratch: &gramScratch)
                for index in 0..<(p * p) { gram.storage[index] += blockGram.storage[index] }
                // Column by column, each sum still taken over the rows in order: the same bits as row by row,
                // from contiguous memory.
                residuals.resize(to: rows)
                for i in done..<split {
                    let r = x0.targets[i] - (pooled ? severityOffsets[i] : 0)
                    residuals[i - done] = r
                    sumR += r
                }
                for j in 0..<p {
                    let column = j * n + done
                    var sum = sumZ[j]
                    var product = sumZR[j]
                    for i in 0..<rows {
                        let value = z.storage[column + i]
                        sum += value
                        product += value * residuals[i]
                    }
                    sumZ[j] = sum
                    sumZR[j] = product
                }
                done = split
            }
            if fold == 0 {
                results.append(origin)
                continue
            }
            precondition(split >= 2, "a scored fold trains on at least minimumUsableDays rows")
            let count = Double(split)
            var system = gram
            var right = sumZR
            for j in 0..<p {
                right[j] -= sumZ[j] * sumR / count
                for k in 0..<p { system[j, k] -= sumZ[j] * sumZ[k] / count }
                system[j, j] += alpha
            }
            try LinearAlgebra.solvePositiveDefinite(&system, &right)
            var intercept = sumR / count
            for j in 0..<p { intercept -= right[j] * sumZ[j] / count }
            guard intercept.isFinite, right.allSatisfy(\.isFinite) else {
                throw .nonFiniteValues(stage: "a rolling-origin ridge")
            }
            let severity =
                prior + RawHead(coefficients: right, intercept: intercept, standardization: standardization)

            let labels = (0..<split).map { x0.targets[$0] >= spec.flare.threshold ? 1.0 : 0.0 }
            let flares = labels.reduce(0, +)
            guard flares > 0 && flares < count, !skipsFlareHeads else {
                let flare = pooled ? flarePrior : RawHead.constant(logit((flares + 0.5) / (count + 1)), count: p)
                results.append(
                    PersonalHeads(severity: severity, flare: flare, flareFitted: "", alpha: alpha, flareSolution: nil))
                continue
            }
            block.reshape(rows: split, columns: p)
            for j in 0..<p {
                for i in 0..<split { block.storage[j * split + i] = z.storage[j * n + i] }
            }
            let offset = pooled ? Array(logitOffsets[0..<split]) : nil
            // A warm start near a separating solution (a small fold) can leave Newton's Hessian singular; such
            // a fold starts over from the base rate, and a fold whose head cannot be fitted at all borrows the
            // prior head, as a user with one class of label does.
            guard
                let solution = try flareHead(
                    x: block, labels: labels, offset: offset, start: start, warmIterations: Self.foldNewtonSteps,
                    coldIterations: spec.flare.maximumIterations)
            else {
                let flare = pooled ? flarePrior : RawHead.constant(logit((flares + 0.5) / (count + 1)), count: p)
                results.append(
                    PersonalHeads(severity: severity, flare: flare, flareFitted: "", alpha: alpha, flareSolution: nil))
                continue
            }
            start = solution
            let delta = RawHead(
                coefficients: solution.coefficients, intercept: solution.intercept, standardization: standardization)
            results.append(
                PersonalHeads(
                    severity: severity, flare: pooled ? flarePrior + delta : delta, flareFitted: "personal",
                    alpha: alpha, flareSolution: solution))
        }
        return results
    }

    /// The flare head by Newton's method from `start` (`warmIterations` steps at most), and from the prior
    /// (`coldIterations`) when there is no start or its Newton system is singular; `nil` when that is too.
    private mutating func flareHead(
        x: Matrix, labels: [Double], offset: [Double]?, start: LogisticSolution?, warmIterations: Int,
        coldIterations: Int
    ) throws(LearningError) -> LogisticSolution? {
        for warm in start == nil ? [false] : [true, false] {
            do {
                return try logistic.fit(
                    x: x, y: labels, offset: offset, inverseRegularization: spec.flare.inverseRegularization,
                    tolerance: spec.flare.tolerance, maximumIterations: warm ? warmIterations : coldIterations,
                    start: warm ? start : nil)
            } catch .notPositiveDefinite {
                continue
            }
        }
        return nil
    }

    /// Static, like the other helpers the nested functions of `select` call: a nested function that used
    /// `self` would capture a copy of the whole trainer, its workspaces included, each time it is made.
    static func makeArtifact(
        spec: ModelSpec, user: UserID, source: ModelSource, imputation: [Double], bounds: ModelArtifact.FeatureBounds?,
        standardization: Standardization, severity: RawHead, flare: RawHead, alpha: Double, flareFitted: String,
        trainedAt: Date
    ) -> ModelArtifact {
        let severityHead = severity.on(standardization)
        let flareHead = flare.on(standardization)
        return ModelArtifact(
            spec: spec, user: user.rawValue, source: source, imputation: imputation, bounds: bounds,
            standardization: standardization,
            severity: .init(
                coefficients: severityHead.coefficients, intercept: severityHead.intercept, alpha: alpha,
                shrunkToward: nil),
            flare: .init(
                coefficients: flareHead.coefficients, intercept: flareHead.intercept, threshold: spec.flare.threshold,
                inverseRegularization: spec.flare.inverseRegularization, fitted: flareFitted),
            metrics: nil, trainingWindow: nil, trainedAt: trainedAt, promoted: false, reason: "")
    }

    /// The design columns the baselines read: the target's value the day before, and its rolling mean.
    var baselineColumns: (persistence: Int, recentMean: Int) {
        let target = spec.inputs.firstIndex { $0.field == spec.target.field }!
        let features = spec.features
        let value = features.firstIndex { $0.input == target && $0.kind == .value }!
        let mean = features.firstIndex {
            if $0.input == target, case .rollingMean = $0.kind { return true }
            return false
        }
        return (value, mean ?? value)
    }

    /// The flare share of the usable rows in `rows`, with half a pseudo-day on each side.
    static func flareRate(_ design: DesignMatrix, rows: Range<Int>, threshold: Double) -> Double {
        var flares = 0.0
        var days = 0.0
        for i in rows where !design.isHidden(i) {
            days += 1
            if design.targets[i] >= threshold { flares += 1 }
        }
        return (flares + 0.5) / (days + 1)
    }

    /// The range of each column over `rows`, widened to include `extending` when given (`learning_column_bounds`).
    static func bounds(
        of x: Matrix, rows: Range<Int>, extending previous: ModelArtifact.FeatureBounds? = nil
    ) -> ModelArtifact.FeatureBounds {
        precondition(rows.lowerBound >= 0 && rows.upperBound <= x.rows, "bounds: rows \(rows) of \(x.rows)")
        var lower = previous?.lower ?? [Double](repeating: .infinity, count: x.columns)
        var upper = previous?.upper ?? [Double](repeating: -.infinity, count: x.columns)
        precondition(
            lower.count == x.columns && upper.count == x.columns, "bounds: \(lower.count) for \(x.columns) columns")
        learning_column_bounds(x.rows, rows.lowerBound, rows.upperBound, x.columns, x.storage, &lower, &upper)
        return .init(lower: lower, upper: upper)
    }

    /// Platt scaling with a pull toward the identity: minimizes Σ log-loss(σ(a + bη)) + (λ/2)(a² + (b − 1)²)
    /// by Newton's method (strictly convex for λ > 0).
    static func calibrate(logits: [Double], labels: [Double], pull lambda: Double) -> SelectionRecord.Calibration {
        var a = 0.0
        var b = 1.0
        for _ in 0..<50 {
            var ga = lambda * a
            var gb = lambda * (b - 1)
            var haa = lambda
            var hab = 0.0
            var hbb = lambda
            for (eta, label) in zip(logits, labels) {
                let q = sigmoid(a + b * eta)
                let w = q * (1 - q)
                ga += q - label
                gb += (q - label) * eta
                haa += w
                hab += w * eta
                hbb += w * eta * eta
            }
            let determinant = haa * hbb - hab * hab
            guard determinant > 0, determinant.isFinite else { break }
            let da = (hbb * ga - hab * gb) / determinant
            let db = (haa * gb - hab * ga) / determinant
            a -= da
            b -= db
            if abs(da) + abs(db) < 1e-12 { break }
        }
        guard a.isFinite, b.isFinite else { return .identity }
        return .init(intercept: a, slope: b)
    }

    /// `value` with `digits` decimals, rounded as printf rounds (`String(format: "%.3f", …)`), formatted by the C
    /// library directly: Foundation's formatting took a few percent of a retrain, for the numbers of each reason.
    static func format(_ value: Double, digits: Int = 3) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 48) { buffer in
            let written = withVaList([Int32(digits), value]) { vsnprintf(buffer.baseAddress, buffer.count, "%.*f", $0) }
            guard written >= 0, written < buffer.count else { return String(format: "%.\(digits)f", value) }
            return String(cString: buffer.baseAddress!)
        }
    }

    /// The name a smoothing constant's candidate is scored under on the folds ("smoothing30").
    static func smoothingName(_ constant: Double) -> String { "smoothing" + ModelSpec.percent(constant) }

    /// The served combination of a user: weights fitted on all their fold days and held toward the cohort's,
    /// the distribution of its out-of-fold errors (with the cohort's), and the absolute error of its
    /// whole-number forecasts out of fold. With no fold day, the cohort's weights, and the errors of the
    /// smoothing forecast over the user's days.
    static func combine(
        evidence: FoldForecasts, design: DesignMatrix, cohort: CohortSettings, smoothing index: Int,
        smoothingColumn: Int, pooled: Bool, spec: ModelSpec
    ) -> (weights: [CombinationWeight], distribution: ForecastDistribution, absoluteError: Double) {
        let range = spec.target.minimum...spec.target.maximum
        let withPersonal = evidence.hasPersonal
        guard evidence.count > 0 else {
            var errors: [Double] = []
            for i in 0..<design.rowCount where !design.isHidden(i) {
                let forecast = design.value(row: i, column: smoothingColumn)
                if !forecast.isNaN {
                    errors.append(design.targets[i] - min(max(forecast, range.lowerBound), range.upperBound))
                }
            }
            let shares = [CombinationCandidate.longMean] + (pooled ? [.population] : [])
            let weights = Self.weights(shares, shares.map { cohort.weight($0, withPersonal: false) })
            return (weights, Combination.distribution(errors: errors, cohort: cohort, spec: spec), 0)
        }
        let candidates = Combination.candidates(evidence)
        let prior = candidates.map { cohort.weight($0, withPersonal: withPersonal) }
        let scales = candidates.map(cohort.scale)
        let outOfFold = Combination.outOfFold(
            evidence, smoothing: index, candidates: candidates, prior: prior, scales: scales,
            pseudoDays: cohort.priorPseudoDays, range: range)
        let errors = zip(evidence.targets, outOfFold).map { $0 - $1 }
        let absoluteError = CohortCalibration.absoluteError(outOfFold, evidence.targets)
        let fitted = Combination.fit(
            evidence, smoothing: index, candidates: candidates, rows: Array(0..<evidence.count), prior: prior,
            scales: scales, pseudoDays: cohort.priorPseudoDays)
        return (
            Self.weights(candidates, fitted), Combination.distribution(errors: errors, cohort: cohort, spec: spec),
            absoluteError
        )
    }

    /// Weights of `candidates` as the whole list, smoothing's the rest of one.
    private static func weights(_ candidates: [CombinationCandidate], _ values: [Double]) -> [CombinationWeight] {
        let given = Dictionary(uniqueKeysWithValues: zip(candidates, values))
        return CombinationCandidate.allCases.map {
            CombinationWeight(candidate: $0, weight: $0 == .smoothing ? 1 - values.reduce(0, +) : given[$0] ?? 0)
        }
    }

    /// The weights in words, largest first: "a combination of smoothing (0.30) 0.71, personal 0.24, …".
    static func describe(_ weights: [CombinationWeight], smoothing constant: Double) -> String {
        let named = weights.filter { abs($0.weight) >= 0.005 }.sorted { abs($0.weight) > abs($1.weight) }.map {
            ($0.candidate == .smoothing ? "smoothing (\(format(constant, digits: 2)))" : $0.candidate.rawValue)
                + " " + format($0.weight, digits: 2)
        }
        return "a combination of " + named.joined(separator: ", ")
    }
}

func logit(_ probability: Double) -> Double { log(probability / (1 - probability)) }

func crossEntropy(_ probability: Double, _ label: Double) -> Double {
    let clipped = min(max(probability, 1e-15), 1 - 1e-15)
    return label >= 0.5 ? -log(clipped) : -log(1 - clipped)
}
