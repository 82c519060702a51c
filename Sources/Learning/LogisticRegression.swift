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
/// Newton starts from zero weights and the intercept of the base rate, solves the (p+1)×(p+1) system by
/// Cholesky each step, and backtracks (Armijo) when a full step would not decrease the objective. It stops
/// when the largest gradient entry of the *mean* loss, the scale scikit-learn's `tol` uses, is at most
/// `tolerance`. Scratch buffers are kept between fits.
struct LogisticWorkspace: Sendable {
    private var hessian = Matrix(rows: 0, columns: 0)
    private var eta: [Double] = []
    private var probabilities: [Double] = []
    private var trialEta: [Double] = []
    private var trialProbabilities: [Double] = []
    private var residual: [Double] = []
    private var weights: [Double] = []
    private var gradient: [Double] = []
    private var step: [Double] = []
    private var trial: [Double] = []
    private var coefficients: [Double] = []
    private var gramScratch: [Double] = []
    private var secondHalf = Matrix(rows: 0, columns: 0)
    private var secondScratch: [Double] = []

    /// How each Newton matrix is summed over the rows.
    enum GramSummation: Sendable {
        /// In one pass: every personal fit.
        case onePass
        /// Over the two halves of the rows, added together (`LinearAlgebra.weightedGramInHalves`), at once on two
        /// threads or one after the other: the same sums either way.
        case halves(concurrently: Bool)
    }

    var gramSummation = GramSummation.onePass

    init() {}

    /// Fits the model. `y` holds 0 and 1 and must contain both, or the intercept has no finite optimum.
    mutating func fit(
        x: Matrix, y: [Double], offset: [Double]?, inverseRegularization c: Double, tolerance: Double,
        maximumIterations: Int, start: LogisticSolution? = nil
    ) throws(LearningError) -> LogisticSolution {
        let n = x.rows
        let p = x.columns
        precondition(y.count == n && (offset?.count ?? n) == n, "logistic: mismatched rows")
        precondition(c > 0, "logistic: C must be positive")
        let positives = y.reduce(0, +)
        precondition(positives > 0 && positives < Double(n), "logistic: both classes are needed")
        var theta = [Double](repeating: 0, count: p + 1)
        theta[p] = log(positives / (Double(n) - positives))
        // With an offset (a prior head) the prior is already calibrated: start from it unchanged.
        if offset != nil { theta[p] = 0 }
        // A warm start (the previous rolling-origin fold's solution) needs a few steps instead of a full descent.
        if let start, start.coefficients.count == p {
            theta = start.coefficients + [start.intercept]
        }
        var objective = evaluate(x: x, theta: theta, offset: offset, y: y, c: c, accept: true)
        var iterations = 0
        // `hessian` holds the Cholesky factor of an earlier step's Newton matrix when `factored`.
        var factored = false
        var previousLargest = Double.infinity
        var fullStep = false
        while true {
            // Gradient: Xᵀ(σ(η) − y) + w/C, and Σ(σ(η) − y) for the intercept; the rows' Newton weights σ(1 − σ).
            residual.resize(to: n)
            weights.resize(to: n)
            var interceptGradient = 0.0
            for i in 0..<n {
                let probability = probabilities[i]
                residual[i] = probability - y[i]
                interceptGradient += residual[i]
                weights[i] = probability * (1 - probability)
            }
            LinearAlgebra.multiply(x, transposed: true, residual, into: &gradient)
            for j in 0..<p { gradient[j] += theta[j] / c }
            gradient.append(interceptGradient)
            var largest = 0.0
            for value in gradient { largest = max(largest, abs(value)) }
            guard largest.isFinite else { throw .nonFiniteValues(stage: "the logistic gradient") }
            if largest / Double(n) <= tolerance || iterations >= maximumIterations { break }
            iterations += 1

            // Newton system: [X 1]ᵀ W [X 1] + diag(1/C, …, 1/C, 0). Near the optimum it barely changes between
            // steps: after a full step that cut the gradient tenfold, the previous factor is used again (a chord
            // step: O(np) instead of the O(np²) of a new matrix). Such a step contracts the gradient by about as
            // much as the previous step moved the weights.
            let chord = factored && fullStep && largest <= previousLargest / 10
            if !chord {
                switch gramSummation {
                case .onePass:
                    LinearAlgebra.weightedGram(x, weights: weights, into: &hessian, scratch: &gramScratch)
                case .halves(let concurrently):
                    LinearAlgebra.weightedGramInHalves(
                        x, weights: weights, into: &hessian, second: &secondHalf, scratch: &gramScratch,
                        secondScratch: &secondScratch, concurrently: concurrently)
                }
                for j in 0..<p { hessian[j, j] += 1 / c }
                try LinearAlgebra.factorPositiveDefinite(&hessian)
                factored = true
            }
            previousLargest = largest
            step.resize(to: p + 1)
            for j in 0...p { step[j] = -gradient[j] }
            LinearAlgebra.solveFactored(hessian, &step)

            var slope = 0.0
            for j in 0...p { slope += gradient[j] * step[j] }
            // Backtracking. Near the optimum the decrease is below the objective's rounding; there the full
            // Newton step is taken, as it is the step that converges quadratically.
            var length = 1.0
            var accepted = false
            for _ in 0..<40 {
                trial.resize(to: p + 1)
                for j in 0...p { trial[j] = theta[j] + length * step[j] }
                let value = evaluate(x: x, theta: trial, offset: offset, y: y, c: c, accept: false)
                if value <= objective + 1e-4 * length * slope || -slope <= 64 * Double.ulpOfOne * abs(objective) {
                    swap(&theta, &trial)
                    swap(&eta, &trialEta)
                    swap(&probabilities, &trialProbabilities)
                    objective = value
                    accepted = true
                    break
                }
                length /= 2
            }
            fullStep = accepted && length == 1
            // A chord step that does not descend is retried as a Newton step; a Newton step that does not
            // descend ends the descent.
            if !accepted && !chord { break }
        }
        guard theta.allSatisfy(\.isFinite) else { throw .nonFiniteValues(stage: "the logistic coefficients") }
        return LogisticSolution(coefficients: Array(theta[0..<p]), intercept: theta[p], iterations: iterations)
    }

    /// The objective at `theta`, leaving η and σ(η) in the current buffers (`accept`) or the trial ones.
    private mutating func evaluate(
        x: Matrix, theta: [Double], offset: [Double]?, y: [Double], c: Double, accept: Bool
    ) -> Double {
        let p = x.columns
        coefficients.resize(to: p)
        var penalty = 0.0
        for j in 0..<p {
            coefficients[j] = theta[j]
            penalty += theta[j] * theta[j]
        }
        let loss: Double
        if accept {
            LinearAlgebra.multiply(x, coefficients, into: &eta)
            loss = LinearAlgebra.logisticTerms(
                eta: &eta, shift: theta[p], offset: offset, labels: y, probabilities: &probabilities)
        } else {
            LinearAlgebra.multiply(x, coefficients, into: &trialEta)
            loss = LinearAlgebra.logisticTerms(
                eta: &trialEta, shift: theta[p], offset: offset, labels: y, probabilities: &trialProbabilities)
        }
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
