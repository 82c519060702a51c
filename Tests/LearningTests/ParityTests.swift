import Testing

@testable import Learning

/// Learning against scikit-learn, case by case (Goldens/, made by scripts/reference/make_goldens.py).
/// Tolerances are the issue's: ridge and RidgeCV 1e-8 relative, logistic 1e-6. "Relative" is norm-wise:
/// the largest coefficient error over the largest reference coefficient, with the intercept judged the
/// same way against the intercept and coefficients together.
@Suite("Parity with scikit-learn")
struct ParityTests {
    @Test("standardization matches StandardScaler", arguments: Golden.names)
    func standardization(name: String) throws {
        let golden = try Golden.load(name)
        guard let expected = golden.standardization else { return }
        let actual = try #require(golden.design().standardization)
        #expect(relativeError(actual.means, expected.means) < 1e-12)
        #expect(relativeError(actual.scales, expected.scales) < 1e-12)
    }

    @Test("ridge with each fixed penalty matches Ridge to 1e-8", arguments: Golden.names)
    func ridge(name: String) throws {
        let golden = try Golden.load(name)
        let (x, _) = golden.design()
        var workspace = RidgeWorkspace()
        for expected in golden.ridge {
            let fit = try workspace.fit(x: x, y: golden.y, alpha: try #require(expected.alpha))
            #expect(relativeError(fit.coefficients, expected.coefficients) < 1e-8, "alpha \(fit.alpha)")
            #expect(
                relativeError([fit.intercept] + fit.coefficients, [expected.intercept] + expected.coefficients) < 1e-8)
        }
    }

    /// Values so extreme that every penalty's leave-one-out error overflows: the fit throws, on both the
    /// tall path (XᵀX) and the wide one (XXᵀ), instead of trapping on a winner that was never set.
    @Test("leave-one-out with no finite error throws, on tall and on wide matrices", arguments: [(12, 4), (4, 12)])
    func leaveOneOutOverflow(rows: Int, columns: Int) {
        var x = Matrix(rows: rows, columns: columns)
        for i in 0..<rows {
            for j in 0..<columns { x[i, j] = (i * 7 + j * 3) % 5 == 0 ? 1e300 : -1e300 }
        }
        let y = (0..<rows).map { Double($0 % 3) }
        var workspace = RidgeWorkspace()
        #expect(throws: LearningError.self) {
            try workspace.fitLeaveOneOut(x: x, y: y, alphas: [0.1, 1, 10])
        }
    }

    @Test("leave-one-out picks RidgeCV's alpha and matches its coefficients to 1e-8", arguments: Golden.names)
    func ridgeLeaveOneOut(name: String) throws {
        let golden = try Golden.load(name)
        let (x, _) = golden.design()
        var workspace = RidgeWorkspace()
        let fit = try workspace.fitLeaveOneOut(x: x, y: golden.y, alphas: golden.alphas)
        let expected = golden.ridgecv
        #expect(fit.alpha == expected.alpha)
        #expect(relativeError(fit.coefficients, expected.coefficients) < 1e-8)
        #expect(relativeError([fit.intercept] + fit.coefficients, [expected.intercept] + expected.coefficients) < 1e-8)
        let error = try #require(fit.leaveOneOutError)
        let expectedError = try #require(expected.meanSquaredError)
        #expect(abs(error - expectedError) <= 1e-8 * max(expectedError, 1e-12))
    }

    @Test("logistic matches newton-cholesky at tol 1e-12 to 1e-6", arguments: Golden.names)
    func logistic(name: String) throws {
        let golden = try Golden.load(name)
        let (x, _) = golden.design()
        let labels = golden.y.map { $0 >= golden.threshold ? 1.0 : 0.0 }
        guard let coefficients = golden.logistic.coefficients, let intercept = golden.logistic.intercept else {
            // scikit-learn refuses one class; Learning never calls the solver then (see ModelTrainerTests).
            #expect(golden.logistic.error != nil)
            #expect(Set(labels).count == 1)
            return
        }
        var workspace = LogisticWorkspace()
        let fit = try workspace.fit(
            x: x, y: labels, offset: nil, inverseRegularization: golden.inverseRegularization, tolerance: 1e-10,
            maximumIterations: 100)
        #expect(relativeError(fit.coefficients, coefficients) < 1e-6)
        #expect(relativeError([fit.intercept] + fit.coefficients, [intercept] + coefficients) < 1e-6)
    }
}
