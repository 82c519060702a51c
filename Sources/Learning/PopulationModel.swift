public import Domain
public import Foundation

/// The cohort's model: one ridge and one flare head over every user's training days. It is the prior a
/// personal model is shrunk toward, a baseline a personal model must beat, and the model served to users
/// with too few days.
public struct PopulationModel: Sendable, Hashable {
    public let artifact: ModelArtifact
    let spec: ModelSpec

    /// A population model restored from storage. Throws if it was made with another spec.
    public init(artifact: ModelArtifact, spec: ModelSpec = .symptomForecast) throws(LearningError) {
        try artifact.check(against: spec)
        self.artifact = artifact
        self.spec = spec
    }

    /// The cohort's settings for every user's combination (`CohortCalibration`), `nil` until they are learned.
    public var cohort: CohortSettings? { artifact.cohort }

    /// The same model with the cohort's settings.
    public func with(_ cohort: CohortSettings) -> PopulationModel {
        var artifact = self.artifact
        artifact.cohort = cohort
        return PopulationModel(checked: artifact, spec: spec)
    }

    private init(checked artifact: ModelArtifact, spec: ModelSpec) {
        self.artifact = artifact
        self.spec = spec
    }

    /// Whether enough users and rows were pooled (`spec.population.minimumUsers`, `minimumRows`) for the model
    /// to be a candidate and a prior. A smaller "population" is neither: users are served their baselines or
    /// a personal fit shrunk toward their own mean.
    public var isPooled: Bool {
        (artifact.pooledUsers ?? 0) >= spec.population.minimumUsers
            && (artifact.trainingWindow?.usableDays ?? 0) >= spec.population.minimumRows
    }

    /// The population model as a user without an artifact of their own is served it: missing values take
    /// the user's own means over their logs before `today`, inputs are clipped to the user's range, and the
    /// interval is the cohort's (`CohortSettings.errorQuantiles`; the whole scale before the cohort has any).
    public func serving(user: UserID, logs: [DailyLog], today: Day) -> ModelArtifact {
        let builder = FeatureBuilder(spec: spec)
        let design = builder.designMatrix(logs: logs, today: today)
        var served = artifact
        served.user = user.rawValue
        served.imputation = builder.imputation(for: design)
        served.distribution = Combination.distribution(errors: [], cohort: cohort ?? .initial(spec), spec: spec)
        if design.rowCount > 0 {
            served.bounds = spec.openingTargetFeatures(
                ModelTrainer.bounds(of: design.imputed(with: served.imputation).values, rows: 0..<design.rowCount))
        }
        return served
    }

    /// Linear predictors (severity, flare logit) for the rows of an imputed raw matrix.
    func linearPredictors(_ x: Matrix, severity: inout [Double], flare: inout [Double]) {
        severity.resize(to: x.rows)
        flare.resize(to: x.rows)
        for i in 0..<x.rows {
            severity[i] = artifact.severity.intercept
            flare[i] = artifact.flare.intercept
        }
        let standardization = artifact.standardization
        for j in 0..<x.columns {
            let mean = standardization.means[j]
            let scale = standardization.scales[j]
            let ws = artifact.severity.coefficients[j] / scale
            let wf = artifact.flare.coefficients[j] / scale
            let base = j * x.rows
            for i in 0..<x.rows {
                let centered = x.storage[base + i] - mean
                severity[i] += ws * centered
                flare[i] += wf * centered
            }
        }
    }
}

/// Collects what the population model needs from each user, in memory that does not grow with the
/// number of users:
/// - for the severity ridge, exact sufficient statistics of the pooled rows — the count, the means and
///   the centred cross-product matrix of `[features, target]`, merged user by user with Chan, Golub &
///   LeVeque's pairwise update (stable, and associative, so workers can accumulate apart and merge);
/// - for the flare head, whose Newton iterations need the rows themselves, a bottom-k sample: each row
///   gets a key hashed from (seed, user, day) and the `flareSampleRows` smallest keys are kept. The sample
///   is the same whatever the order users are added or partial accumulators merged.
///
/// Only training rows count: target days before the hold-out window, so the population model never saw
/// the days a personal model is judged on.
public struct PopulationAccumulator: Sendable {
    public let spec: ModelSpec
    /// The first held-out target day; rows before it are pooled.
    public let holdoutStart: Day
    private let builder: FeatureBuilder
    private var count = 0
    private var users = 0
    private var means: [Double]
    private var comoment: Matrix
    private var firstDay: Day?
    private var lastDay: Day?
    private(set) var sample: BottomKSample
    /// Rows whose sample key is not below this are left out of the flare head's sample: a pooled sample elsewhere
    /// already holds its full count of smaller keys (`sampleKeyBound`), so such a row could never be kept when
    /// this accumulator is merged into it. The sample merged is the same; most rows are no longer copied twice.
    public var sampleKeyLimit = UInt64.max
    private var workspace = Matrix(rows: 0, columns: 0)
    private var userComoment = Matrix(rows: 0, columns: 0)
    private var gramScratch: [Double] = []

    /// An empty accumulator for a retrain on `today`.
    public init(spec: ModelSpec = .symptomForecast, today: Day) {
        self.spec = spec
        holdoutStart = today.adding(days: -spec.training.holdoutDays)
        builder = FeatureBuilder(spec: spec)
        let width = spec.featureNames.count + 1
        means = Array(repeating: 0, count: width)
        comoment = Matrix(rows: width, columns: width)
        sample = BottomKSample(
            capacity: spec.population.flareSampleRows, width: width, seed: spec.population.sampleSeed)
    }

    /// Rows pooled so far.
    public var rowCount: Int { count }

    /// The largest key of the flare head's sample once it holds its full count of rows, `nil` before: a row with
    /// a key from here up can no longer enter it (a `sampleKeyLimit` for accumulators merged into this one).
    public var sampleKeyBound: UInt64? { sample.largestKeyWhenFull }

    /// Adds one user's training rows (logs in any order; those on or after the hold-out are ignored).
    public mutating func add(user: UserID, logs: [DailyLog]) {
        add(user: user, trainingRows: builder.designMatrix(logs: logs, today: holdoutStart))
    }

    /// `add(user:logs:)` from the days' values alone (`Storage`'s `dayValues(users:through:)`).
    public mutating func add(user: UserID, values: [DayValues]) {
        add(user: user, trainingRows: builder.designMatrix(values: values, today: holdoutStart))
    }

    /// Adds the training rows of a design matrix built for this retrain's `today` (by
    /// `FeatureBuilder.designMatrix(logs:today:)`), so a single pass can build each user's features once for
    /// this accumulator and for `ModelTrainer.train(user:design:today:population:trainedAt:)`.
    public mutating func add(user: UserID, design: DesignMatrix) {
        let split = design.days.firstIndex { $0 >= holdoutStart } ?? design.rowCount
        add(user: user, trainingRows: split == design.rowCount ? design : design.rows(0..<split))
    }

    private mutating func add(user: UserID, trainingRows design: DesignMatrix) {
        precondition(design.featureNames == spec.featureNames, "a design of another spec")
        let n = design.rowCount
        guard n > 0 else { return }
        let p = design.columnCount
        // [X y] with X imputed, written once into the workspace (which is centred on this user's means below).
        workspace.reshape(rows: n, columns: p + 1)
        let imputation = builder.imputation(for: design)
        workspace.storage.withUnsafeMutableBufferPointer { buffer in
            design.writeImputed(with: imputation, into: buffer)
            for i in 0..<n { buffer[n * p + i] = design.targets[i] }
        }
        let userHash = BottomKSample.hash(user)
        var row = [Double](repeating: 0, count: p + 1)
        for i in 0..<n {
            let key = BottomKSample.key(
                seed: sample.seed, userHash: userHash, day: design.days[i], hidden: design.isHidden(i))
            if key < sampleKeyLimit && sample.admits(key) {
                for j in 0...p { row[j] = workspace.storage[j * n + i] }
                sample.insert(key: key, row: row)
            }
        }
        var userMeans: [Double] = []
        _ = LinearAlgebra.centerColumns(inPlace: &workspace, means: &userMeans)
        LinearAlgebra.gram(workspace, into: &userComoment, scratch: &gramScratch)
        merge(count: n, means: userMeans, comoment: userComoment)
        users += 1
        firstDay = min(firstDay ?? design.days[0], design.days[0])
        lastDay = max(lastDay ?? design.days[n - 1], design.days[n - 1])
    }

    /// Adds another accumulator's rows (from a worker that saw other users).
    public mutating func merge(_ other: PopulationAccumulator) {
        precondition(other.spec == spec && other.holdoutStart == holdoutStart, "merging different retrains")
        guard other.count > 0 else { return }
        merge(count: other.count, means: other.means, comoment: other.comoment)
        users += other.users
        sample.insert(contentsOf: other.sample)
        if let day = other.firstDay { firstDay = min(firstDay ?? day, day) }
        if let day = other.lastDay { lastDay = max(lastDay ?? day, day) }
    }

    private mutating func merge(count other: Int, means otherMeans: [Double], comoment otherComoment: Matrix) {
        let total = count + other
        let weight = Double(count) * Double(other) / Double(total)
        var delta = [Double](repeating: 0, count: means.count)
        for j in 0..<means.count { delta[j] = otherMeans[j] - means[j] }
        LinearAlgebra.accumulate(&comoment, adding: otherComoment, outer: delta, weight: weight)
        for j in 0..<means.count { means[j] += delta[j] * Double(other) / Double(total) }
        count = total
    }

    /// Fits the population model. The ridge penalty is chosen from the spec's grid by generalized
    /// cross-validation (GCV), the rotation-invariant form of leave-one-out that needs only the sufficient
    /// statistics; with thousands of pooled rows the two agree closely and the penalty barely matters.
    ///
    /// With `threads` above 1 the flare head's Newton matrices are summed on two threads: the model is the same,
    /// bit for bit, whatever `threads` is.
    public func model(trainedAt: Date, threads: Int = 1) throws(LearningError) -> PopulationModel {
        let p = spec.featureNames.count
        let n = Double(count)
        var standardization = Standardization(
            means: Array(means[0..<p]), scales: Array(repeating: 1, count: p))
        var coefficients = [Double](repeating: 0, count: p)
        var alpha = spec.ridge.alphas[0]
        var intercept = spec.inputs.first { $0.field == spec.target.field }!.typical
        if count >= 2 {
            intercept = means[p]
            for j in 0..<p {
                let variance = comoment[j, j] / n
                let mean = means[j]
                let bound = n * Double.ulpOfOne * variance + (n * mean * Double.ulpOfOne) * (n * mean * Double.ulpOfOne)
                standardization.scales[j] = variance <= bound ? 1 : variance.squareRoot()
            }
            (coefficients, alpha) = try fitGeneralizedCrossValidation(scales: standardization.scales)
        } else if count == 1 {
            intercept = means[p]
        }
        let flare = try fitFlareHead(standardization: standardization, concurrently: threads > 1)
        let window = firstDay.map { ModelArtifact.TrainingWindow(first: $0, last: lastDay!, usableDays: count) }
        var artifact = ModelArtifact(
            spec: spec, user: nil, source: .population, imputation: standardization.means,
            standardization: standardization,
            severity: .init(coefficients: coefficients, intercept: intercept, alpha: alpha, shrunkToward: nil),
            flare: flare, metrics: nil, trainingWindow: window, trainedAt: trainedAt, promoted: true,
            reason: "population model over \(count) days from \(users) users")
        artifact.pooledUsers = users
        return try PopulationModel(artifact: artifact, spec: spec)
    }

    private func fitGeneralizedCrossValidation(scales: [Double]) throws(LearningError) -> ([Double], Double) {
        let p = scales.count
        let n = Double(count)
        var gram = Matrix(rows: p, columns: p)
        var cross = [Double](repeating: 0, count: p)
        for k in 0..<p {
            cross[k] = comoment[k, p] / scales[k]
            for j in 0..<p { gram[j, k] = comoment[j, k] / (scales[j] * scales[k]) }
        }
        guard gram.storage.allSatisfy(\.isFinite), cross.allSatisfy(\.isFinite) else {
            throw .nonFiniteValues(stage: "the population statistics")
        }
        var eigenvalues: [Double] = []
        var workspace = LinearAlgebra.EigenWorkspace()
        try LinearAlgebra.eigendecompose(&gram, eigenvalues: &eigenvalues, workspace: &workspace)
        var projected: [Double] = []
        LinearAlgebra.multiply(gram, transposed: true, cross, into: &projected)
        let targetSquares = comoment[p, p]
        var bestAlpha = spec.ridge.alphas[0]
        var bestScore = Double.infinity
        for alpha in spec.ridge.alphas {
            // RSS(α) = yᵀy − Σ a²(λ + 2α)/(λ + α)², degrees of freedom Σ λ/(λ + α), plus one for the intercept.
            var residual = targetSquares
            var freedom = 1.0
            for k in 0..<p {
                let lambda = max(eigenvalues[k], 0)
                let a = projected[k]
                residual -= a * a * (lambda + 2 * alpha) / ((lambda + alpha) * (lambda + alpha))
                freedom += lambda / (lambda + alpha)
            }
            let denominator = 1 - freedom / n
            let score = denominator > 0 ? max(residual, 0) / n / (denominator * denominator) : .infinity
            if score < bestScore {
                bestScore = score
                bestAlpha = alpha
            }
        }
        var shrunk = [Double](repeating: 0, count: p)
        for k in 0..<p { shrunk[k] = projected[k] / (max(eigenvalues[k], 0) + bestAlpha) }
        var coefficients: [Double] = []
        LinearAlgebra.multiply(gram, shrunk, into: &coefficients)
        guard coefficients.allSatisfy(\.isFinite) else { throw .nonFiniteValues(stage: "the population ridge") }
        return (coefficients, bestAlpha)
    }

    private func fitFlareHead(standardization: Standardization, concurrently: Bool) throws(LearningError)
        -> ModelArtifact.FlareHead
    {
        let p = spec.featureNames.count
        // The sampled rows in key order, column by column: the features, then the target.
        var sampled = sample.matrix()
        let n = sampled.rows
        let labels = sampled.storage[(n * p)...].map { $0 >= spec.flare.threshold ? 1.0 : 0.0 }
        sampled.storage.removeLast(n)  // the target column: the features stay where they are, not copied
        // Standardized where they are: at 20,000 rows a copy is 7 MB more at the retrain's peak.
        var x = Matrix(rows: n, columns: p, storage: sampled.storage)
        sampled = Matrix(rows: 0, columns: 0)
        standardization.applyInPlace(&x)
        let flares = labels.reduce(0, +)
        guard flares > 0, flares < Double(n) else {
            // One class (or no rows): the base rate with half a pseudo-day on each side.
            let rate = (flares + 0.5) / (Double(n) + 1)
            return .init(
                coefficients: Array(repeating: 0, count: p), intercept: log(rate / (1 - rate)),
                threshold: spec.flare.threshold, inverseRegularization: spec.flare.inverseRegularization,
                fitted: "constant")
        }
        var workspace = LogisticWorkspace()
        workspace.gramSummation = .halves(concurrently: concurrently)
        let fit = try workspace.fit(
            x: x, y: labels, offset: nil, inverseRegularization: spec.flare.inverseRegularization,
            tolerance: spec.flare.tolerance, maximumIterations: spec.flare.maximumIterations)
        return .init(
            coefficients: fit.coefficients, intercept: fit.intercept, threshold: spec.flare.threshold,
            inverseRegularization: spec.flare.inverseRegularization, fitted: "population")
    }
}

/// The rows with the `capacity` smallest keys seen so far: a max-heap of (key, slot) over a flat row buffer,
/// so sifting moves two integers and never a row.
struct BottomKSample: Sendable {
    let capacity: Int
    let width: Int
    let seed: UInt64
    private var keys: [UInt64] = []
    private var slots: [Int] = []
    private var rows: [Double] = []

    init(capacity: Int, width: Int, seed: UInt64) {
        self.capacity = capacity
        self.width = width
        self.seed = seed
    }

    /// FNV-1a of the user id, the user's part of every key.
    static func hash(_ user: UserID) -> UInt64 {
        FNV1a.hash(user.rawValue)
    }

    /// A row's key: SplitMix64's finalizer (Steele, Lea & Flood 2014) of the seed, the user's hash, the day
    /// and whether the row is the day's hidden-yesterday copy, so every row of a user has its own key and the
    /// sample does not depend on the order rows arrive in.
    static func key(seed: UInt64, userHash: UInt64, day: Day, hidden: Bool = false) -> UInt64 {
        var z =
            seed &+ userHash &+ UInt64(bitPattern: Int64(day.ordinal)) &* 0x9e37_79b9_7f4a_7c15
            &+ (hidden ? 0x5851_f42d_4c95_7f2d : 0)
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    func admits(_ key: UInt64) -> Bool { keys.count < capacity || key < keys[0] }

    /// The largest key kept, once `capacity` rows are (the heap's root); `nil` before.
    var largestKeyWhenFull: UInt64? { keys.count == capacity && capacity > 0 ? keys[0] : nil }

    mutating func insert(key: UInt64, row: [Double]) {
        row.withUnsafeBufferPointer { insert(key: key, row: $0) }
    }

    /// Every row of `other` that belongs among the smallest keys, without copying the others (the kept set
    /// does not depend on the order rows arrive in, so `entries()` is as if they came one by one).
    mutating func insert(contentsOf other: BottomKSample) {
        precondition(other.width == width, "sample row width")
        other.rows.withUnsafeBufferPointer { rows in
            for (index, key) in other.keys.enumerated() where admits(key) {
                let start = other.slots[index] * width
                insert(key: key, row: UnsafeBufferPointer(rebasing: rows[start..<(start + width)]))
            }
        }
    }

    private mutating func insert(key: UInt64, row: UnsafeBufferPointer<Double>) {
        precondition(row.count == width, "sample row width")
        if keys.count < capacity {
            if rows.count + width > rows.capacity {
                // Grown by doubling, but never past the sample's size: a full sample holds no spare half.
                rows.reserveCapacity(min(capacity * width, max(2 * rows.count, 64 * width)))
            }
            keys.append(key)
            slots.append(keys.count - 1)
            rows.append(contentsOf: row)
            siftUp(keys.count - 1)
        } else if key < keys[0] {
            keys[0] = key
            let start = slots[0] * width
            for k in 0..<width { rows[start + k] = row[k] }
            siftDown(0)
        }
    }

    /// The kept rows in key order (the order of `entries()`), as the rows of a column-major matrix of `width`
    /// columns: what the fit reads, without an array per row.
    func matrix() -> Matrix {
        let order = keyOrder()
        let n = order.count
        var matrix = Matrix(rows: n, columns: width)
        // Through buffers: element by element through the arrays, a large population's copy was slow.
        matrix.storage.withUnsafeMutableBufferPointer { target in
            rows.withUnsafeBufferPointer { source in
                for (i, index) in order.enumerated() {
                    let start = slots[index] * width
                    for j in 0..<width { target[j * n + i] = source[start + j] }
                }
            }
        }
        return matrix
    }

    /// The kept rows, ordered by key so that the fit sees them in a reproducible order.
    func entries() -> [(key: UInt64, row: [Double])] {
        keyOrder().map { index in
            let start = slots[index] * width
            return (key: keys[index], row: Array(rows[start..<(start + width)]))
        }
    }

    /// The heap's positions in key order.
    private func keyOrder() -> [Int] { (0..<keys.count).sorted { keys[$0] < keys[$1] } }

    private mutating func swapEntries(_ a: Int, _ b: Int) {
        keys.swapAt(a, b)
        slots.swapAt(a, b)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard keys[child] > keys[parent] else { return }
            swapEntries(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var largest = parent
            if left < keys.count && keys[left] > keys[largest] { largest = left }
            if right < keys.count && keys[right] > keys[largest] { largest = right }
            guard largest != parent else { return }
            swapEntries(parent, largest)
            parent = largest
        }
    }
}
