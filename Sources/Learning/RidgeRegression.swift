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
    /// X Q ("cov") or Q ("gram"), and the target and ones vector in its coordinates.
    private var projected = Matrix(rows: 0, columns: 0)
    private var projectedTarget: [Double] = []
    private var projectedOnes: [Double] = []
    /// Per penalty, (T + αI)⁻¹ applied to the projected target (columns 0..<A) and ones (A..<2A); then those
    /// fits on every row, and the hat matrix's diagonal (one column per penalty).
    private var solutions = Matrix(rows: 0, columns: 0)
    private var fitted = Matrix(rows: 0, columns: 0)
    private var hat = Matrix(rows: 0, columns: 0)
    private var scratchP: [Double] = []
    private var scratchN: [Double] = []
    /// The reciprocals of `pivots`, for the quadratic forms.
    private var reciprocals: [Double] = []
    private var gramScratch: [Double] = []

    init() {}

    /// Ridge with a fixed penalty. Throws only when the system is not positive definite, which needs a
    /// non-positive `alpha` or non-finite input.
    mutating func fit(x: Matrix, y: [Double], alpha: Double) throws(LearningError) -> RidgeSolution {
        try center(x: x, y: y)
        let n = x.rows
        let p = x.columns
        var coefficients = [Double](repeating: 0, count: p)
        if n > p {
            LinearAlgebra.gram(centered, into: &decomposition, scratch: &gramScratch)
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
        let covariance = n > p
        // One symmetric matrix is reduced to tridiagonal form, S = Q T Qᵀ; every penalty then needs only
        // (T + αI)⁻¹, an O(p) factorization, and the hat matrix's diagonal as quadratic forms in the rows of
        // the basis (see `LinearAlgebra.tridiagonalQuadraticForms`). Scikit-learn diagonalizes S instead;
        // the two are the same linear algebra, and the goldens hold them to 1e-8.
        if covariance {
            // "cov": S = XᵀX, basis = X Q. Hat matrix X(XᵀX + αI)⁻¹Xᵀ = basis (T + αI)⁻¹ basisᵀ.
            LinearAlgebra.gram(centered, into: &decomposition, scratch: &gramScratch)
            try LinearAlgebra.tridiagonalize(
                &decomposition, diagonal: &tridiagonal, offDiagonal: &offDiagonal, workspace: &lapackWorkspace)
            LinearAlgebra.multiply(centered, decomposition, into: &projected)
        } else {
            // "gram": S = XXᵀ, G⁻¹ = (XXᵀ + αI)⁻¹ = Q (T + αI)⁻¹ Qᵀ, basis = Q; the leave-one-out residual is
            // c / diag(G⁻¹), c = G⁻¹y.
            LinearAlgebra.outerGram(centered, into: &decomposition)
            try LinearAlgebra.tridiagonalize(
                &decomposition, diagonal: &tridiagonal, offDiagonal: &offDiagonal, workspace: &lapackWorkspace)
            swap(&projected, &decomposition)  // `projected` holds the basis in both cases
        }
        LinearAlgebra.multiply(projected, transposed: true, centeredTarget, into: &projectedTarget)
        // scikit-learn carries Xᵀ1 (zero up to rounding for centred X) through the intercept term.
        Self.columnSums(of: projected, into: &projectedOnes)
        factor(alphas: alphas)
        // For every penalty at once: the fits of the target and of the ones vector (one matrix product), and
        // the hat matrix's diagonal.
        LinearAlgebra.tridiagonalSolves(
            multipliers: multipliers, pivots: pivots, order: tridiagonal.count, penalties: alphas.count,
            first: projectedTarget, second: projectedOnes, into: &solutions)
        LinearAlgebra.multiply(projected, solutions, into: &fitted)
        LinearAlgebra.tridiagonalQuadraticForms(
            projected, multipliers: multipliers, pivots: pivots, penalties: alphas.count, into: &hat,
            scratch: &reciprocals)

        var best = 0
        var bestError = Double.infinity
        for a in alphas.indices {
            let meanError = LinearAlgebra.leaveOneOutError(
                covariance: covariance, centeredTarget: centeredTarget, fitted: fitted, targetColumn: a,
                onesColumn: alphas.count + a, hat: hat, hatColumn: a)
            if meanError < bestError {
                bestError = meanError
                best = a
            }
        }
        // No penalty gave a finite error (values so extreme that the reduction overflowed): fail the fit.
        guard bestError.isFinite else { throw .nonFiniteValues(stage: "the leave-one-out errors") }
        var coefficients = [Double](repeating: 0, count: p)
        if covariance {
            scratchP.resize(to: tridiagonal.count)
            for j in scratchP.indices { scratchP[j] = solutions[j, best] }
            LinearAlgebra.multiply(decomposition, scratchP, into: &coefficients)
        } else {
            scratchN.resize(to: n)
            for i in 0..<n { scratchN[i] = fitted.storage[fitted.columnRange(best).lowerBound + i] }
            LinearAlgebra.multiply(centered, transposed: true, scratchN, into: &coefficients)
        }
        return try solution(coefficients: coefficients, alpha: alphas[best], error: bestError)
    }

    /// Factors T + αI = L D Lᵀ for every penalty (T from `tridiagonalize`; positive definite for α > 0, so no
    /// pivoting): penalty a's subdiagonal of L at `multipliers[a(p−1)…]`, its D at `pivots[ap…]`.
    private mutating func factor(alphas: [Double]) {
        let p = tridiagonal.count
        pivots.resize(to: alphas.count * p)
        multipliers.resize(to: alphas.count * max(p - 1, 0))
        guard p > 0 else { return }
        for (a, alpha) in alphas.enumerated() {
            let d = a * p
            let l = a * (p - 1)
            pivots[d] = tridiagonal[0] + alpha
            for k in 1..<p {
                let multiplier = offDiagonal[k - 1] / pivots[d + k - 1]
                multipliers[l + k - 1] = multiplier
                pivots[d + k] = tridiagonal[k] + alpha - multiplier * offDiagonal[k - 1]
            }
        }
    }

    private mutating func center(x: Matrix, y: [Double]) throws(LearningError) {
        precondition(x.rows == y.count, "ridge: \(x.rows) rows but \(y.count) targets")
        precondition(x.rows >= 2, "ridge needs at least two rows")
        let n = x.rows
        guard LinearAlgebra.centerColumns(x, into: &centered, means: &means) else {
            throw .nonFiniteValues(stage: "the design matrix")
        }
        let mean = LinearAlgebra.sum(y) / Double(n)
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

    private static func columnSums(of m: Matrix, into sums: inout [Double]) {
        sums.resize(to: m.columns)
        for j in 0..<m.columns { sums[j] = LinearAlgebra.columnSum(m, j) }
    }
}
