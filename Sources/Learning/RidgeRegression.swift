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
///   generalized CV): the closed form of Rifkin & Lippert, "Notes on Regularized Least Squares"
///   (MIT-CSAIL-TR-2007-025), including scikit-learn's correction for the centred intercept, on `XᵀX`
///   (rows > columns, scikit-learn's "cov") or `XXᵀ` (otherwise, "gram"). Where scikit-learn diagonalizes
///   that matrix, this reduces it once to tridiagonal form (the first, cheap half of an eigensolver) and
///   solves with T + αI in O(p) per penalty; each penalty then costs O(n·p).
///   Penalties are tried in grid order and a later one wins only with a strictly lower mean squared error,
///   which is how `RidgeCV` breaks ties.
struct RidgeWorkspace: Sendable {
    private var centered = Matrix(rows: 0, columns: 0)
    private var centeredTarget: [Double] = []
    private var means: [Double] = []
    private var decomposition = Matrix(rows: 0, columns: 0)
    /// The diagonal of T, then its off-diagonal, and T + αI = L D Lᵀ's multipliers and pivots.
    private var tridiagonal: [Double] = []
    private var offDiagonal: [Double] = []
    private var multipliers: [Double] = []
    private var pivots: [Double] = []
    private var lapackWorkspace = LinearAlgebra.EigenWorkspace()
    private var projected = Matrix(rows: 0, columns: 0)
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
        let count = Double(n)
        var bestAlpha = alphas[0]
        var bestError = Double.infinity
        var coefficients = [Double](repeating: 0, count: p)
        // One symmetric matrix is reduced to tridiagonal form, S = Q T Qᵀ; every penalty then needs only
        // (T + αI)⁻¹, an O(p) factorization, and the hat matrix's diagonal as quadratic forms in the rows of
        // `projected` (see `LinearAlgebra.tridiagonalQuadraticForms`). Scikit-learn diagonalizes S instead;
        // the two are the same linear algebra, and the goldens hold them to 1e-8.
        if n > p {
            // "cov": S = XᵀX, projected = X Q. Hat matrix X(XᵀX + αI)⁻¹Xᵀ = projected (T + αI)⁻¹ projectedᵀ.
            LinearAlgebra.gram(centered, into: &decomposition)
            try LinearAlgebra.tridiagonalize(
                &decomposition, diagonal: &tridiagonal, offDiagonal: &offDiagonal, workspace: &lapackWorkspace)
            LinearAlgebra.multiply(centered, decomposition, into: &projected)
            LinearAlgebra.multiply(projected, transposed: true, centeredTarget, into: &projectedTarget)
            // scikit-learn carries Xᵀ1 (zero up to rounding for centred X) through the intercept term.
            columnSums(of: projected, into: &projectedOnes)
            for alpha in alphas {
                factor(alpha: alpha)
                solve(projectedTarget, into: &scratchP)
                LinearAlgebra.multiply(projected, scratchP, into: &fitted)
                solve(projectedOnes, into: &scratchP)
                LinearAlgebra.multiply(projected, scratchP, into: &fittedOnes)
                LinearAlgebra.tridiagonalQuadraticForms(
                    projected, multipliers: multipliers, pivots: pivots, into: &diagonal, scratch: &scaled)
                var total = 0.0
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
            // No penalty gave a finite error (values so extreme that the reduction overflowed): fail the fit.
            guard bestError.isFinite else { throw .nonFiniteValues(stage: "the leave-one-out errors") }
            factor(alpha: bestAlpha)
            solve(projectedTarget, into: &scratchP)
            LinearAlgebra.multiply(decomposition, scratchP, into: &coefficients)
        } else {
            // "gram": S = XXᵀ, G⁻¹ = (XXᵀ + αI)⁻¹ = Q (T + αI)⁻¹ Qᵀ; the leave-one-out residual is c / diag(G⁻¹),
            // c = G⁻¹y, with scikit-learn's correction for the centred intercept.
            LinearAlgebra.outerGram(centered, into: &decomposition)
            try LinearAlgebra.tridiagonalize(
                &decomposition, diagonal: &tridiagonal, offDiagonal: &offDiagonal, workspace: &lapackWorkspace)
            LinearAlgebra.multiply(decomposition, transposed: true, centeredTarget, into: &projectedTarget)
            columnSums(of: decomposition, into: &projectedOnes)
            for alpha in alphas {
                factor(alpha: alpha)
                solve(projectedTarget, into: &scratchP)
                LinearAlgebra.multiply(decomposition, scratchP, into: &fitted)
                solve(projectedOnes, into: &scratchP)
                LinearAlgebra.multiply(decomposition, scratchP, into: &fittedOnes)
                LinearAlgebra.tridiagonalQuadraticForms(
                    decomposition, multipliers: multipliers, pivots: pivots, into: &diagonal, scratch: &scaled)
                var total = 0.0
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
            // `best` holds the fitted values of the best penalty only when one gave a finite error.
            guard bestError.isFinite else { throw .nonFiniteValues(stage: "the leave-one-out errors") }
            LinearAlgebra.multiply(centered, transposed: true, best, into: &coefficients)
        }
        return try solution(coefficients: coefficients, alpha: bestAlpha, error: bestError)
    }

    /// Factors T + αI = L D Lᵀ (T from `tridiagonalize`; positive definite for α > 0, so no pivoting).
    private mutating func factor(alpha: Double) {
        let p = tridiagonal.count
        pivots.resize(to: p)
        multipliers.resize(to: max(p - 1, 0))
        guard p > 0 else { return }
        pivots[0] = tridiagonal[0] + alpha
        for k in 1..<max(p, 1) {
            let multiplier = offDiagonal[k - 1] / pivots[k - 1]
            multipliers[k - 1] = multiplier
            pivots[k] = tridiagonal[k] + alpha - multiplier * offDiagonal[k - 1]
        }
    }

    /// `result = (T + αI)⁻¹ b` with the factors from `factor(alpha:)`.
    private func solve(_ b: [Double], into result: inout [Double]) {
        let p = pivots.count
        result.resize(to: p)
        guard p > 0 else { return }
        result[0] = b[0]
        for k in 1..<max(p, 1) { result[k] = b[k] - multipliers[k - 1] * result[k - 1] }
        for k in 0..<p { result[k] /= pivots[k] }
        if p >= 2 {
            for k in stride(from: p - 2, through: 0, by: -1) { result[k] -= multipliers[k] * result[k + 1] }
        }
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

    private func solution(coefficients: [Double], alpha: Double, error: Double?) throws(LearningError) -> RidgeSolution
    {
        let p = coefficients.count
        var intercept = means[p]
        for j in 0..<p { intercept -= means[j] * coefficients[j] }
        guard intercept.isFinite, coefficients.allSatisfy(\.isFinite) else {
            throw .nonFiniteValues(stage: "the ridge coefficients")
        }
        return RidgeSolution(coefficients: coefficients, intercept: intercept, alpha: alpha, leaveOneOutError: error)
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
