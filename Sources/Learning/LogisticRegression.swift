internal import Foundation

/// A fitted logistic regression: `P(y = 1) = σ(intercept + coefficients·x + offset)`.
struct LogisticSolution: Sendable, Hashable {
    var coefficients: [Double]
    var intercept: Double
    var iterations: Int
}

/// L2-penalized logistic regression by Newton's method (iteratively reweighted least squares), the
/// objective of scikit-learn's `LogisticRegression(solver="newton-cholesky")`:
/// `Σ log(1 + e^η) − yη + ‖w‖²/(2C)`, intercept unpenalized, with an optional fixed per-row offset in η
/// (used to shrink a user's head toward the population's; scikit-learn has no offset, so parity is
/// checked with none).
///
/// Each step solves the (p+1)×(p+1) Newton system by Cholesky; a backtracking (Armijo) line search keeps
/// the objective decreasing. It stops when the largest gradient entry of the *mean* loss, the scale
/// scikit-learn's `tol` uses, is at most `tolerance`.
struct LogisticWorkspace: Sendable {
    private var weighted = Matrix(rows: 0, columns: 0)
    private var hessian = Matrix(rows: 0, columns: 0)
    private var eta: [Double] = []
    private var residual: [Double] = []
    private var gradient: [Double] = []
    private var step: [Double] = []
    private var trialEta: [Double] = []
    private var direction: [Double] = []

    init() {}

    /// Fits the model. `y` holds 0 and 1 and must contain both, or the intercept has no finite optimum.
    mutating func fit(
        x: Matrix, y: [Double], offset: [Double]?, inverseRegularization c: Double, tolerance: Double,
        maximumIterations: Int
    ) throws(LearningError) -> LogisticSolution {
        let n = x.rows
        let p = x.columns
        precondition(y.count == n && (offset?.count ?? n) == n, "logistic: mismatched rows")
        precondition(y.contains(0) && y.contains(1), "logistic: both classes are needed")
        precondition(c > 0, "logistic: C must be positive")
        var theta = [Double](repeating: 0, count: p + 1)
        var objective = Self.evaluate(x: x, theta: theta, offset: offset, y: y, c: c, into: &eta, scratch: &direction)
        var iterations = 0
        while true {
            // Gradient at theta: Xᵀ(σ(η) − y) + w/C, and Σ(σ(η) − y) for the intercept.
            residual.resize(to: n)
            for i in 0..<n { residual[i] = sigmoid(eta[i]) - y[i] }
            LinearAlgebra.multiply(x, transposed: true, residual, into: &gradient)
            for j in 0..<p { gradient[j] += theta[j] / c }
            var interceptGradient = 0.0
            for value in residual { interceptGradient += value }
            gradient.append(interceptGradient)
            var largest = 0.0
            for value in gradient { largest = max(largest, abs(value)) }
            guard largest.isFinite else { throw .nonFiniteValues(stage: "the logistic gradient") }
            if largest / Double(n) <= tolerance || iterations >= maximumIterations { break }
            iterations += 1

            // Newton system: [X 1]ᵀ W [X 1] + diag(1/C, …, 1/C, 0), built as the Gram of √W·[X 1].
            weighted.reshape(rows: n, columns: p + 1)
            for i in 0..<n {
                let probability = sigmoid(eta[i])
                weighted.storage[i + p * n] = (probability * (1 - probability)).squareRoot()
            }
            for j in 0..<p {
                let base = j * n
                for i in 0..<n { weighted.storage[base + i] = x.storage[base + i] * weighted.storage[i + p * n] }
            }
            LinearAlgebra.gram(weighted, into: &hessian)
            for j in 0..<p { hessian[j, j] += 1 / c }
            step.resize(to: p + 1)
            for j in 0...p { step[j] = -gradient[j] }
            try LinearAlgebra.solvePositiveDefinite(&hessian, &step)

            var slope = 0.0
            for j in 0...p { slope += gradient[j] * step[j] }
            // Backtracking on the objective. Near the optimum the decrease is below the objective's rounding,
            // where the full Newton step is taken: it is the step that converges quadratically there.
            var length = 1.0
            var accepted = false
            for _ in 0..<40 {
                var trial = theta
                for j in 0...p { trial[j] += length * step[j] }
                let value = Self.evaluate(
                    x: x, theta: trial, offset: offset, y: y, c: c, into: &trialEta, scratch: &direction)
                let roundingFloor = 64 * Double.ulpOfOne * abs(objective)
                if value <= objective + 1e-4 * length * slope || -slope <= roundingFloor {
                    theta = trial
                    objective = value
                    swap(&eta, &trialEta)
                    accepted = true
                    break
                }
                length /= 2
            }
            if !accepted { break }
        }
        let coefficients = Array(theta[0..<p])
        guard theta.allSatisfy(\.isFinite) else { throw .nonFiniteValues(stage: "the logistic coefficients") }
        return LogisticSolution(coefficients: coefficients, intercept: theta[p], iterations: iterations)
    }

    /// The objective at `theta`, leaving the linear predictor in `eta`.
    private static func evaluate(
        x: Matrix, theta: [Double], offset: [Double]?, y: [Double], c: Double, into eta: inout [Double],
        scratch: inout [Double]
    ) -> Double {
        let p = x.columns
        scratch.resize(to: p)
        for j in 0..<p { scratch[j] = theta[j] }
        LinearAlgebra.multiply(x, scratch, into: &eta)
        var loss = 0.0
        for i in 0..<x.rows {
            var value = eta[i] + theta[p]
            if let offset { value += offset[i] }
            eta[i] = value
            loss += logLoss(linear: value, label: y[i])
        }
        var penalty = 0.0
        for j in 0..<p { penalty += theta[j] * theta[j] }
        return loss + penalty / (2 * c)
    }
}

/// `1 / (1 + e^−η)` without overflow.
@inline(__always)
func sigmoid(_ eta: Double) -> Double {
    if eta >= 0 { return 1 / (1 + exp(-eta)) }
    let e = exp(eta)
    return e / (1 + e)
}

/// `log(1 + e^η) − yη`, the negative log-likelihood of one row, without overflow.
@inline(__always)
func logLoss(linear eta: Double, label y: Double) -> Double {
    log1p(exp(-abs(eta))) + max(eta, 0) - y * eta
}
