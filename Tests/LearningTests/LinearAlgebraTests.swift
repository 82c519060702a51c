import COpenBLAS
import Domain
import Foundation
import LearningKernels
import Testing

@testable import Learning

@Suite("Linear algebra over OpenBLAS and LAPACK")
struct LinearAlgebraTests {
    @Test("a matrix that is not positive definite is an error naming the failing minor")
    func notPositiveDefinite() {
        // Eigenvalues 3 and −1: the second leading minor, 1·1 − 2·2, is negative.
        var matrix = Matrix(rowMajor: [[1, 2], [2, 1]])
        var rhs = [1.0, 1.0]
        #expect(throws: LearningError.notPositiveDefinite(order: 2, minor: 2)) {
            try LinearAlgebra.solvePositiveDefinite(&matrix, &rhs)
        }
    }

    @Test("a positive definite system is solved")
    func solves() throws {
        var matrix = Matrix(rowMajor: [[4, 1], [1, 3]])
        var rhs = [1.0, 2.0]
        try LinearAlgebra.solvePositiveDefinite(&matrix, &rhs)
        // Exact solution (1/11, 7/11).
        #expect(abs(rhs[0] - 1.0 / 11) < 1e-15 && abs(rhs[1] - 7.0 / 11) < 1e-15)
    }

    @Test(
        "the Cholesky factor and its solve agree with LAPACK's dpotrf and dpotrs, the lower triangle untouched",
        arguments: [1, 2, 7, 8, 9, 43, 64, 65, 70])
    func choleskyAgreesWithLAPACK(order n: Int) throws {
        var random = SeededRandom(seed: UInt64(n))
        // BᵀB + n·I, symmetric positive definite, with a lower triangle that differs from the upper.
        var b = Matrix(rows: n, columns: n)
        for index in b.storage.indices { b.storage[index] = Double(random.next() % 2_001) / 1_000 - 1 }
        var a = Matrix(rows: n, columns: n)
        for j in 0..<n {
            for i in 0...j {
                var sum = i == j ? Double(n) : 0
                for k in 0..<n { sum += b[k, i] * b[k, j] }
                a[i, j] = sum
            }
            for i in (j + 1)..<n { a[i, j] = -7 }
        }
        var lapack = a
        var uplo = CChar(UInt8(ascii: "U"))
        var order = Int32(n)
        var lda = Int32(n)
        var info: Int32 = 0
        lapack.storage.withUnsafeMutableBufferPointer {
            copenblas_dpotrf(&uplo, &order, $0.baseAddress, &lda, &info, 1)
        }
        #expect(info == 0)
        var factor = a
        try LinearAlgebra.factorPositiveDefinite(&factor)
        let scale = lapack.storage.map(abs).max()!
        for j in 0..<n {
            for i in 0..<n {
                if i <= j {
                    #expect(abs(factor[i, j] - lapack[i, j]) <= 1e-13 * scale, "U[\(i), \(j)]")
                } else {
                    #expect(factor[i, j] == -7, "lower [\(i), \(j)]")
                }
            }
        }
        var rhs = (0..<n).map { Double($0 % 5) - 2 }
        var expected = rhs
        var one: Int32 = 1
        var ldb = Int32(n)
        lapack.storage.withUnsafeBufferPointer { u in
            expected.withUnsafeMutableBufferPointer {
                copenblas_dpotrs(&uplo, &order, &one, u.baseAddress, &lda, $0.baseAddress, &ldb, &info, 1)
            }
        }
        LinearAlgebra.solveFactored(factor, &rhs)
        let size = expected.map(abs).max()!
        #expect(zip(rhs, expected).allSatisfy { abs($0 - $1) <= 1e-12 * size })

        // A leading minor that is not positive definite is named as LAPACK names it.
        for minor in Set([1, (n + 1) / 2, n]) {
            var broken = a
            broken[minor - 1, minor - 1] = -1
            var reference = broken
            reference.storage.withUnsafeMutableBufferPointer {
                copenblas_dpotrf(&uplo, &order, $0.baseAddress, &lda, &info, 1)
            }
            #expect(info == Int32(minor))
            #expect(throws: LearningError.notPositiveDefinite(order: n, minor: minor)) {
                try LinearAlgebra.factorPositiveDefinite(&broken)
            }
        }
    }

    @Test("eigenvalues come in ascending order with orthonormal vectors")
    func eigen() throws {
        var matrix = Matrix(rowMajor: [[2, 1], [1, 2]])
        var values: [Double] = []
        var workspace = LinearAlgebra.EigenWorkspace()
        try LinearAlgebra.eigendecompose(&matrix, eigenvalues: &values, workspace: &workspace)
        #expect(abs(values[0] - 1) < 1e-14 && abs(values[1] - 3) < 1e-14)
        // The eigenvector of 3 is ±(1, 1)/√2.
        #expect(abs(abs(matrix[0, 1]) - 0.5.squareRoot()) < 1e-14 && abs(matrix[0, 1] - matrix[1, 1]) < 1e-14)
    }

    @Test(
        "a tridiagonal T's quadratic forms yᵢᵀ (T + αI)⁻¹ yᵢ and solves for several α at once match dense solves",
        arguments: [1, 7, 8, 15, 16, 17, 40], [1, 2, 6])
    func tridiagonalQuadraticForms(rows n: Int, columns p: Int) throws {
        // T: diagonal 4 + k/3, off-diagonal 1 − k/5 (diagonally dominant, so positive definite). Six penalties
        // and up to 40 rows cover the kernel's whole blocks (4 penalties × 16 rows) and the partial ones.
        let diagonal = (0..<p).map { 4 + Double($0) / 3 }
        let offDiagonal = (0..<max(p - 1, 0)).map { 1 - Double($0) / 5 }
        let alphas = [0, 0.5, 3, 10, 100, 0.01]
        var pivots: [Double] = []
        var multipliers: [Double] = []
        for alpha in alphas {
            var pivot = diagonal[0] + alpha
            pivots.append(pivot)
            for k in 1..<max(p, 1) {
                let multiplier = offDiagonal[k - 1] / pivot
                multipliers.append(multiplier)
                pivot = diagonal[k] + alpha - multiplier * offDiagonal[k - 1]
                pivots.append(pivot)
            }
        }
        // b ← (T + αI)⁻¹ b by Cholesky of the dense T + αI.
        func solveDense(_ alpha: Double, _ b: inout [Double]) throws {
            var t = Matrix(rows: p, columns: p)
            for k in 0..<p {
                t[k, k] = diagonal[k] + alpha
                if k > 0 {
                    t[k, k - 1] = offDiagonal[k - 1]
                    t[k - 1, k] = offDiagonal[k - 1]
                }
            }
            try LinearAlgebra.solvePositiveDefinite(&t, &b)
        }
        var y = Matrix(rows: n, columns: p)
        for i in 0..<n {
            for k in 0..<p { y[i, k] = sin(Double(7 * i + 3 * k + 1)) * Double(k + 1) }
        }
        var result = Matrix(rows: 0, columns: 0)
        var scratch: [Double] = []
        LinearAlgebra.tridiagonalQuadraticForms(
            y, multipliers: multipliers, pivots: pivots, penalties: alphas.count, into: &result, scratch: &scratch)
        try #require(result.rows == n && result.columns == alphas.count)
        for (a, alpha) in alphas.enumerated() {
            for i in 0..<n {
                let row = (0..<p).map { y[i, $0] }
                var solution = row
                try solveDense(alpha, &solution)
                let expected = zip(row, solution).reduce(0) { $0 + $1.0 * $1.1 }
                #expect(abs(result[i, a] - expected) <= 1e-12 * abs(expected), "row \(i) of \(n)×\(p), α = \(alpha)")
            }
        }
        // The solves: columns a and count + a are (T + αₐI)⁻¹ applied to the first and the second row of y.
        guard n >= 2 else { return }
        let first = (0..<p).map { y[0, $0] }
        let second = (0..<p).map { y[1, $0] }
        var solutions = Matrix(rows: 0, columns: 0)
        LinearAlgebra.tridiagonalSolves(
            multipliers: multipliers, pivots: pivots, order: p, penalties: alphas.count, first: first, second: second,
            into: &solutions)
        try #require(solutions.rows == p && solutions.columns == 2 * alphas.count)
        for (a, alpha) in alphas.enumerated() {
            for (column, rightHandSide) in [(a, first), (alphas.count + a, second)] {
                var expected = rightHandSide
                try solveDense(alpha, &expected)
                let scale = expected.map(abs).max() ?? 0
                for k in 0..<p {
                    #expect(abs(solutions[k, column] - expected[k]) <= 1e-12 * scale, "entry \(k), α = \(alpha)")
                }
            }
        }
    }

    @Test(
        "the leave-one-out error is the mean of the squared residuals over their leverage, on XᵀX and on XXᵀ",
        arguments: [1, 7, 8, 9, 23])
    func leaveOneOutError(rows n: Int) {
        // Two penalties' columns side by side, so the kernel must read the columns it is pointed at.
        var fitted = Matrix(rows: n, columns: 4)
        var hat = Matrix(rows: n, columns: 2)
        var target: [Double] = []
        for i in 0..<n {
            target.append(cos(Double(3 * i + 1)))
            for j in 0..<4 { fitted[i, j] = sin(Double(5 * i + j + 2)) / 3 }
            for j in 0..<2 { hat[i, j] = 0.1 + 0.3 * abs(sin(Double(11 * i + j))) }
        }
        let count = Double(n)
        for covariance in [true, false] {
            let value = LinearAlgebra.leaveOneOutError(
                covariance: covariance, centeredTarget: target, fitted: fitted, targetColumn: 1, onesColumn: 3,
                hat: hat, hatColumn: 1)
            var total = 0.0
            for i in 0..<n {
                let error =
                    covariance
                    ? (target[i] - fitted[i, 1]) / (1 - hat[i, 1] - (1 - fitted[i, 3]) / count)
                    : fitted[i, 1] / (hat[i, 1] - fitted[i, 3] / count)
                total += error * error
            }
            let expected = total / count
            #expect(abs(value - expected) <= 1e-13 * expected, "\(n) rows, covariance \(covariance)")
        }
    }

    /// Every shape of block the kernel has: whole and partial blocks of columns, whole and partial groups of 8
    /// rows, fewer rows than 8, no rows, more rows than one chunk of 512 (a whole second chunk, and a partial
    /// one), with and without weights and the column of ones, in both block orders; and the same rows read as a
    /// range of a taller matrix.
    @Test(
        "the weighted Gram kernel's upper triangle matches sums taken one product at a time",
        arguments: [(0, 3), (1, 1), (7, 3), (8, 4), (9, 5), (17, 8), (40, 9), (352, 41), (1024, 5), (1100, 6)])
    func weightedGramKernel(rows n: Int, columns m: Int) {
        var random = SeededRandom(seed: UInt64(n * 100 + m))
        let a = (0..<(n * m)).map { _ in random.uniform(-1...1) }
        let d = (0..<n).map { _ in random.unit() }
        for block in [4, 2] {
            for weighted in [false, true] {
                for ones in [false, true] {
                    let order = m + (ones ? 1 : 0)
                    let untouched = -7.0
                    var c = [Double](repeating: untouched, count: order * order)
                    func column(_ j: Int) -> (Int) -> Double { j < m ? { a[j * n + $0] } : { _ in 1 } }
                    // Scratch that starts anywhere: the kernel finds the cache line itself.
                    var scratch = [Double](repeating: .nan, count: learning_gram_scratch_count(n, m) + 3)
                    scratch.withUnsafeMutableBufferPointer { buffer in
                        let start = buffer.baseAddress! + 3
                        if weighted {
                            learning_gram_upper_in_blocks(block, n, m, a, n, d, ones ? 1 : 0, &c, start)
                        } else {
                            learning_gram_upper_in_blocks(block, n, m, a, n, nil, ones ? 1 : 0, &c, start)
                        }
                    }
                    // The same rows as a range of a taller matrix (NaN above and below, which a read would spread):
                    // the same sums, bit for bit.
                    let lda = n + 5
                    var tall = [Double](repeating: .nan, count: lda * m)
                    for j in 0..<m {
                        for i in 0..<n { tall[j * lda + 3 + i] = a[j * n + i] }
                    }
                    var fromRange = [Double](repeating: untouched, count: order * order)
                    tall.withUnsafeBufferPointer { tallBuffer in
                        scratch.withUnsafeMutableBufferPointer { buffer in
                            let rows = tallBuffer.baseAddress! + 3
                            let start = buffer.baseAddress! + 3
                            if weighted {
                                learning_gram_upper_in_blocks(
                                    block, n, m, rows, lda, d, ones ? 1 : 0, &fromRange, start)
                            } else {
                                learning_gram_upper_in_blocks(
                                    block, n, m, rows, lda, nil, ones ? 1 : 0, &fromRange, start)
                            }
                        }
                    }
                    #expect(fromRange == c, "\(n)×\(m) taken from a taller matrix, blocks of \(block)")
                    for k in 0..<order {
                        for j in 0..<order {
                            let value = c[j + k * order]
                            guard j <= k else {
                                #expect(value == untouched, "the lower triangle is left as it was")
                                continue
                            }
                            let (left, right) = (column(j), column(k))
                            let expected = (0..<n).reduce(0.0) { $0 + (weighted ? d[$1] : 1) * left($1) * right($1) }
                            let scale = (0..<n).reduce(0.0) { $0 + abs(left($1) * right($1)) }
                            #expect(
                                abs(value - expected) <= 1e-14 * max(scale, 1),
                                "c[\(j), \(k)] of \(n)×\(m), blocks of \(block), weighted \(weighted), ones \(ones)")
                        }
                    }
                }
            }
        }
    }

    /// Each path (glibc's libmvec 8 or 4 rows a call, and the scalar code) against the formula with the scalar
    /// `exp` and `log1p`, on row counts that leave partial groups, with and without an offset, at predictors far
    /// enough out that a naive log(1 + e^η) would overflow.
    @Test("the logistic terms match the scalar formula within a few ulps", arguments: [1, 7, 8, 13, 352])
    func logisticTerms(rows n: Int) {
        var random = SeededRandom(seed: UInt64(n))
        let start = (0..<n).map { i in i % 5 == 4 ? (i % 2 == 0 ? 800.0 : -800.0) : random.uniform(-30...30) }
        let labels = (0..<n).map { _ in random.chance(0.3) ? 1.0 : 0.0 }
        for offset in [nil, (0..<n).map { _ in random.uniform(-2...2) }] {
            for lanes in [8, 4, 1] {
                var eta = start
                var probabilities = [Double](repeating: .nan, count: n)
                let loss = learning_logistic_terms_in_lanes(lanes, n, &eta, 0.25, offset, labels, &probabilities)
                var expectedLoss = 0.0
                for i in 0..<n {
                    let value = start[i] + (0.25 + (offset?[i] ?? 0))
                    #expect(eta[i] == value, "η of row \(i) is shifted in place (\(lanes) lanes)")
                    let e = exp(-abs(value))
                    let probability = value >= 0 ? 1 / (1 + e) : e / (1 + e)
                    #expect(
                        abs(probabilities[i] - probability) <= 8 * probability.ulp,
                        "σ(η) of row \(i) of \(n), \(lanes) lanes")
                    expectedLoss += log1p(e) + max(value, 0) - labels[i] * value
                }
                #expect(
                    loss.isFinite && abs(loss - expectedLoss) <= 1e-13 * max(abs(expectedLoss), 1),
                    "the loss of \(n) rows, \(lanes) lanes")
            }
        }
    }

    @Test(
        "a feature's bounds over some rows are their minimum and maximum, NaN skipped, widened by earlier bounds",
        arguments: [(0, 0), (0, 1), (3, 12), (5, 40), (0, 41)])
    func columnBounds(first: Int, end: Int) {
        var random = SeededRandom(seed: UInt64(first * 100 + end))
        var x = Matrix(rows: 41, columns: 3)
        for index in x.storage.indices { x.storage[index] = random.uniform(-5...5) }
        // A missing value at the start of a range and one inside it, ignored as `Swift.min` and `max` ignore them.
        x[3, 1] = .nan
        x[20, 2] = .nan
        let earlier = ModelArtifact.FeatureBounds(lower: [-1, 0, -9], upper: [1, 0, 9])
        let bounds = ModelTrainer.bounds(of: x, rows: first..<end, extending: earlier)
        for j in 0..<3 {
            let column = (first..<end).map { x[$0, j] }.filter { !$0.isNaN }
            #expect(bounds.lower[j] == min(earlier.lower[j], column.min() ?? .infinity), "column \(j)")
            #expect(bounds.upper[j] == max(earlier.upper[j], column.max() ?? -.infinity), "column \(j)")
        }
        let fresh = ModelTrainer.bounds(of: x, rows: first..<end)
        #expect(fresh.lower[0] == ((first..<end).map { x[$0, 0] }.min() ?? .infinity), "without earlier bounds")
        #expect(fresh.upper.allSatisfy { !$0.isNaN }, "no bound is NaN")
    }

    @Test("the Gram matrices of a 3×2 matrix are AᵀA and AAᵀ")
    func gram() {
        let a = Matrix(rowMajor: [[1, 2], [3, 4], [5, 6]])
        var c = Matrix(rows: 0, columns: 0)
        var scratch: [Double] = []
        LinearAlgebra.gram(a, into: &c, scratch: &scratch)
        #expect(c == Matrix(rowMajor: [[35, 44], [44, 56]]))
        LinearAlgebra.outerGram(a, into: &c)
        #expect(c == Matrix(rowMajor: [[5, 11, 17], [11, 25, 39], [17, 39, 61]]))
        var product: [Double] = []
        LinearAlgebra.multiply(a, transposed: true, [1, 1, 1], into: &product)
        #expect(product == [9, 12])
    }

    @Test("standardizing a matrix where it is gives the bits of standardizing it into another")
    func standardizeInPlace() {
        var random = SeededRandom(seed: 5)
        var x = Matrix(rows: 1_003, columns: 7)
        for index in x.storage.indices { x.storage[index] = random.uniform(-50...80) }
        let standardization = Standardization(fitting: x)
        var copied = Matrix(rows: 0, columns: 0)
        standardization.apply(x, into: &copied)
        standardization.applyInPlace(&x)
        #expect(x.storage.map(\.bitPattern) == copied.storage.map(\.bitPattern))
        #expect(standardization.scales.allSatisfy { $0 != 1 }, "every column is scaled")
    }
}
