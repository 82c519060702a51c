/// A fitted ridge regression: `ŷ = intercept + coefficients·x`.
struct RidgeSolution: Sendable, Hashable {
    var coefficients: [Double]
    var intercept: Double
    var alpha: Double
    /// Mean squared leave-one-out error at `alpha`, when the penalty was chosen by leave-one-out.
    var leaveOneOutError: Double?
}

/// Ridge regression with an unpenalized intercept, as scikit-learn 1.9's `Ridge` and `RidgeCV` compute it.
///
/// Both centre `x` and `y` (the intercept is `ȳ − x̄·w`) and do not scale `x`; standardization, when wanted,
/// is the caller's step before this one. The scratch buffers live here and are reused between fits, so a
/// cohort loop allocates once per worker, not once per user.
///
/// - `fit(alpha:)` mirrors `Ridge(solver="cholesky")`: `(XᵀX + αI)w = Xᵀy` for tall data, and the kernel form
///   `(XXᵀ + αI)c = y, w = Xᵀc` when there are no more rows than columns.
/// - `fitLeaveOneOut` mirrors `RidgeCV(alphas)` with its default `gcv_mode` (exact leave-one-out, *not*
///   generalized CV): one eigendecomposition of `XᵀX` (rows > columns, "cov") or `XXᵀ` (otherwise, "gram"),
///   then each penalty in O(n·p) from the closed form of Rifkin & Lippert, "Notes on Regularized Least
///   Squares" (MIT-CSAIL-TR-2007-025), including scikit-learn's correction for the centred intercept.
///   Penalties are tried in grid order and a later one wins only with a strictly lower mean squared error,
///   which is how `RidgeCV` breaks ties.
struct RidgeWorkspace: Sendable {
    private var centered = Matrix(rows: 0, columns: 0)
    private var centeredTarget: [Double] = []
    private var means: [Double] = []
    private var decomposition = Matrix(rows: 0, columns: 0)
    private var eigenvalues: [Double] = []
    private var eigenWorkspace = LinearAlgebra.EigenWorkspace()
    private var projected = Matrix(rows: 0, columns: 0)
    private var squared = Matrix(rows: 0, columns: 0)
    private var scratchP: [Double] = []
    private var projectedTarget: [Double] = []
    private var projectedOnes: [Double] = []
    private var scaled: [Double] = []
    private var fitted: [Double] = []
    private var fittedOnes: [Double] = []
    private var diagonal: [Double] = []
    private var best: [Double] = []

    init() {}

    /// Ridge with a fixed penalty. Throws only when the system is not positive definite, which needs a
    /// non-positive `alpha` or non-finite input.
    mutating func fit(x: Matrix, y: [Double], alpha: Double) throws(LearningError) -> RidgeSolution {
        try center(x: x, y: y)
        let n = x.rows
        let p = x.columns
        var coefficients = [Double](repeating: 0, count: p)
        if n > p {
            LinearAlgebra.gram(centered, into: &decomposition)
            for j in 0..<p { decomposition[j, j] += alpha }
            LinearAlgebra.multiply(centered, transposed: true, centeredTarget, into: &coefficients)
            try LinearAlgebra.solvePositiveDefinite(&decomposition, &coefficients)
        } else {
            LinearAlgebra.outerGram(centered, into: &decomposition)
            for i in 0..<n { decomposition[i, i] += alpha }
            var dual = centeredTarget
            try LinearAlgebra.solvePositiveDefinite(&decomposition, &dual)
            LinearAlgebra.multiply(centered, transposed: true, dual, into: &coefficients)
        }
        return try solution(coefficients: coefficients, alpha: alpha, error: nil)
    }

    /// Ridge with the penalty from `alphas` that minimises the exact leave-one-out squared error.
    mutating func fitLeaveOneOut(x: Matrix, y: [Double], alphas: [Double]) throws(LearningError) -> RidgeSolution {
        precondition(!alphas.isEmpty, "no penalties to choose from")
        try center(x: x, y: y)
        let n = x.rows
        let p = x.columns
        var bestAlpha = alphas[0]
        var bestError = Double.infinity
        var coefficients = [Double](repeating: 0, count: p)
        if n > p {
            // "cov": XᵀX = V Λ Vᵀ. With Z = X V, the hat matrix for a penalty is Z D Zᵀ, D = (Λ + α)⁻¹.
            LinearAlgebra.gram(centered, into: &decomposition)
            try LinearAlgebra.eigendecompose(&decomposition, eigenvalues: &eigenvalues, workspace: &eigenWorkspace)
            LinearAlgebra.multiply(centered, decomposition, into: &projected)
            LinearAlgebra.square(projected, into: &squared)
            LinearAlgebra.multiply(centered, transposed: true, centeredTarget, into: &scratchP)
            LinearAlgebra.multiply(decomposition, transposed: true, scratchP, into: &projectedTarget)
            // scikit-learn carries Xᵀ1 (zero up to rounding for centred X) through the intercept term.
            columnSums(of: projected, into: &projectedOnes)
            for alpha in alphas {
                fillInverse(alpha: alpha)
                scale(projectedTarget)
                LinearAlgebra.multiply(projected, scratchP, into: &fitted)
                scale(projectedOnes)
                LinearAlgebra.multiply(projected, scratchP, into: &fittedOnes)
                LinearAlgebra.multiply(squared, scaled, into: &diagonal)
                var total = 0.0
                let count = Double(n)
                for i in 0..<n {
                    let alphaC = centeredTarget[i] - fitted[i]
                    let alphaD = 1 - diagonal[i] - (1 - fittedOnes[i]) / count
                    let error = alphaC / alphaD
                    total += error * error
                }
                let meanError = total / count
                if meanError < bestError {
                    bestError = meanError
                    bestAlpha = alpha
                }
            }
            fillInverse(alpha: bestAlpha)
            scale(projectedTarget)
            LinearAlgebra.multiply(decomposition, scratchP, into: &coefficients)
        } else {
            // "gram": XXᵀ = Q Λ Qᵀ, G⁻¹ = Q D Qᵀ; the leave-one-out residual is c / diag(G⁻¹), c = G⁻¹y.
            LinearAlgebra.outerGram(centered, into: &decomposition)
            try LinearAlgebra.eigendecompose(&decomposition, eigenvalues: &eigenvalues, workspace: &eigenWorkspace)
            LinearAlgebra.square(decomposition, into: &squared)
            LinearAlgebra.multiply(decomposition, transposed: true, centeredTarget, into: &projectedTarget)
            columnSums(of: decomposition, into: &projectedOnes)
            for alpha in alphas {
                fillInverse(alpha: alpha)
                scale(projectedTarget)
                LinearAlgebra.multiply(decomposition, scratchP, into: &fitted)
                scale(projectedOnes)
                LinearAlgebra.multiply(decomposition, scratchP, into: &fittedOnes)
                LinearAlgebra.multiply(squared, scaled, into: &diagonal)
                var total = 0.0
                let count = Double(n)
                for i in 0..<n {
                    let d = diagonal[i] - fittedOnes[i] / count
                    let error = fitted[i] / d
                    total += error * error
                }
                let meanError = total / count
                if meanError < bestError {
                    bestError = meanError
                    bestAlpha = alpha
                    best = fitted
                }
            }
            LinearAlgebra.multiply(centered, transposed: true, best, into: &coefficients)
        }
        guard bestError.isFinite else { throw .nonFiniteValues(stage: "the leave-one-out errors") }
        return try solution(coefficients: coefficients, alpha: bestAlpha, error: bestError)
    }

    private mutating func center(x: Matrix, y: [Double]) throws(LearningError) {
        precondition(x.rows == y.count, "ridge: \(x.rows) rows but \(y.count) targets")
        precondition(x.rows >= 2, "ridge needs at least two rows")
        let n = x.rows
        guard LinearAlgebra.centerColumns(x, into: &centered, means: &means) else {
            throw .nonFiniteValues(stage: "the design matrix")
        }
        var sum = 0.0
        for value in y { sum += value }
        let mean = sum / Double(n)
        guard mean.isFinite else { throw .nonFiniteValues(stage: "the targets") }
        means.append(mean)
        centeredTarget.resize(to: n)
        for i in 0..<n { centeredTarget[i] = y[i] - mean }
    }

    private func solution(coefficients: [Double], alpha: Double, error: Double?) throws(LearningError) -> RidgeSolution {
        let p = coefficients.count
        var intercept = means[p]
        for j in 0..<p { intercept -= means[j] * coefficients[j] }
        guard intercept.isFinite, coefficients.allSatisfy(\.isFinite) else {
            throw .nonFiniteValues(stage: "the ridge coefficients")
        }
        return RidgeSolution(coefficients: coefficients, intercept: intercept, alpha: alpha, leaveOneOutError: error)
    }

    private mutating func fillInverse(alpha: Double) {
        scaled.resize(to: eigenvalues.count)
        for k in 0..<eigenvalues.count { scaled[k] = 1 / (eigenvalues[k] + alpha) }
    }

    /// `scratchP = scaled ∘ v`.
    private mutating func scale(_ v: [Double]) {
        scratchP.resize(to: v.count)
        for k in 0..<v.count { scratchP[k] = scaled[k] * v[k] }
    }

    private func columnSums(of m: Matrix, into sums: inout [Double]) {
        sums.resize(to: m.columns)
        for j in 0..<m.columns {
            var sum = 0.0
            for index in m.columnRange(j) { sum += m.storage[index] }
            sums[j] = sum
        }
    }
}
