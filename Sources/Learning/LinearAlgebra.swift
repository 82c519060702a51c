// One file: every BLAS and LAPACK call of the module, and all the pointer code, kept in one place on purpose.

internal import COpenBLAS
internal import Foundation
internal import LearningKernels

/// The BLAS and LAPACK calls the fits need, and the only code in the module that touches pointers.
///
/// Every entry point checks dimensions (a mismatch is a programmer error and traps) and turns a
/// LAPACK `info` into a `LearningError`. The Fortran routines are declared in `COpenBLAS.h`:
/// column-major, arguments by pointer, 32-bit integers, a hidden length per character argument.
/// Reference: https://www.netlib.org/lapack/explore-html/ (dposv, dsyevd).
enum LinearAlgebra {
    /// OpenBLAS's own threads would compete with the per-user parallelism of the caller (one fit per
    /// core is faster than one fit on two cores: docs/benchmarks.md), so the process uses one BLAS thread.
    /// A global `let` is initialized once, thread-safely, on first use.
    static let singleThreaded: Void = copenblas_set_num_threads(1)

    /// `c = aᵀa`: both triangles filled, or only the upper one when `upperOnly` (enough for
    /// `solvePositiveDefinite`, which reads the upper triangle). Summed by `learning_gram_upper`, which beats
    /// OpenBLAS's `dsyrk` on the small, tall matrices of a fit; `scratch` is its buffer, kept between calls.
    static func gram(_ a: Matrix, into c: inout Matrix, scratch: inout [Double], upperOnly: Bool = false) {
        c.reshape(rows: a.columns, columns: a.columns)
        guard a.columns > 0 else { return }
        reserveScratch(&scratch, rows: a.rows, columns: a.columns)
        a.storage.withUnsafeBufferPointer { aBuffer in
            c.storage.withUnsafeMutableBufferPointer { cBuffer in
                scratch.withUnsafeMutableBufferPointer { scratchBuffer in
                    learning_gram_upper(
                        a.rows, a.columns, aBuffer.baseAddress, a.rows, nil, 0, cBuffer.baseAddress,
                        scratchBuffer.baseAddress)
                }
            }
        }
        if !upperOnly { mirrorUpper(&c) }
    }

    /// The upper triangle of `c = [x 1]ᵀ diag(d) [x 1]`, of order `x.columns + 1`: the Newton matrix of a
    /// logistic fit with an intercept, whose rows weigh `d = σ(η)(1 − σ(η))`. `scratch` as for `gram`.
    static func weightedGram(_ x: Matrix, weights d: [Double], into c: inout Matrix, scratch: inout [Double]) {
        precondition(d.count == x.rows, "weightedGram: \(d.count) weights for \(x.rows) rows")
        c.reshape(rows: x.columns + 1, columns: x.columns + 1)
        reserveScratch(&scratch, rows: x.rows, columns: x.columns)
        x.storage.withUnsafeBufferPointer { xBuffer in
            d.withUnsafeBufferPointer { dBuffer in
                c.storage.withUnsafeMutableBufferPointer { cBuffer in
                    scratch.withUnsafeMutableBufferPointer { scratchBuffer in
                        learning_gram_upper(
                            x.rows, x.columns, xBuffer.baseAddress, x.rows, dBuffer.baseAddress, 1,
                            cBuffer.baseAddress, scratchBuffer.baseAddress)
                    }
                }
            }
        }
    }

    /// `weightedGram` summed over the rows' two halves, into `c` and `second`, then added into `c`: each half on
    /// its own thread when `concurrently`, and the same sums, bit for bit, either way. The population's flare head
    /// (20,000 rows) is fitted so while every retrain waits for it: its Newton matrices then take both cores.
    static func weightedGramInHalves(
        _ x: Matrix, weights d: [Double], into c: inout Matrix, second: inout Matrix, scratch: inout [Double],
        secondScratch: inout [Double], concurrently: Bool
    ) {
        precondition(d.count == x.rows, "weightedGramInHalves: \(d.count) weights for \(x.rows) rows")
        let order = x.columns + 1
        let half = x.rows / 2
        c.reshape(rows: order, columns: order)
        second.reshape(rows: order, columns: order)
        reserveScratch(&scratch, rows: half, columns: x.columns)
        reserveScratch(&secondScratch, rows: x.rows - half, columns: x.columns)
        x.storage.withUnsafeBufferPointer { xBuffer in
            d.withUnsafeBufferPointer { dBuffer in
                c.storage.withUnsafeMutableBufferPointer { first in
                    second.storage.withUnsafeMutableBufferPointer { last in
                        scratch.withUnsafeMutableBufferPointer { firstScratch in
                            secondScratch.withUnsafeMutableBufferPointer { lastScratch in
                                let halves = GramHalves(
                                    rows: x.rows, columns: x.columns, half: half, x: xBuffer.baseAddress,
                                    d: dBuffer.baseAddress, sums: [first.baseAddress, last.baseAddress],
                                    scratch: [firstScratch.baseAddress, lastScratch.baseAddress])
                                if concurrently {
                                    DispatchQueue.concurrentPerform(iterations: 2) { halves.sum($0) }
                                } else {
                                    halves.sum(0)
                                    halves.sum(1)
                                }
                            }
                        }
                    }
                }
            }
        }
        for k in 0..<order {
            for j in 0...k { c[j, k] += second[j, k] }
        }
    }

    /// The two halves of `weightedGramInHalves`, each summed by `learning_gram_upper` into its own matrix with its
    /// own scratch: two threads share nothing they write.
    private struct GramHalves: @unchecked Sendable {
        let rows: Int
        let columns: Int
        let half: Int
        let x: UnsafePointer<Double>?
        let d: UnsafePointer<Double>?
        /// Per half: where its matrix is summed, and its scratch.
        let sums: [UnsafeMutablePointer<Double>?]
        let scratch: [UnsafeMutablePointer<Double>?]

        /// Half 0 (rows `0..<half`) or half 1 (the rest).
        func sum(_ index: Int) {
            let first = index == 0 ? 0 : half
            let count = index == 0 ? half : rows - half
            learning_gram_upper(
                count, columns, x.map { $0 + first }, rows, d.map { $0 + first }, 1, sums[index], scratch[index])
        }
    }

    /// Grows `scratch` to what `learning_gram_upper` needs for a `rows`×`columns` matrix (it never shrinks, so
    /// a workspace that sums matrices of several sizes fills it once).
    private static func reserveScratch(_ scratch: inout [Double], rows: Int, columns: Int) {
        let count = learning_gram_scratch_count(rows, columns)
        if scratch.count < count { scratch.resize(to: count) }
    }

    /// `c = aaᵀ` (full symmetric, both triangles filled).
    static func outerGram(_ a: Matrix, into c: inout Matrix) {
        _ = singleThreaded
        c.reshape(rows: a.rows, columns: a.rows)
        let n = int32(a.rows)
        let k = int32(a.columns)
        guard a.rows > 0 else { return }
        a.storage.withUnsafeBufferPointer { aBuffer in
            c.storage.withUnsafeMutableBufferPointer { cBuffer in
                copenblas_dsyrk(
                    COPENBLAS_COL_MAJOR, COPENBLAS_UPPER, COPENBLAS_NO_TRANS, n, k, 1, aBuffer.baseAddress,
                    max(1, n), 0, cBuffer.baseAddress, max(1, n))
            }
        }
        mirrorUpper(&c)
    }

    /// `c = a·b`.
    static func multiply(_ a: Matrix, _ b: Matrix, into c: inout Matrix) {
        precondition(a.columns == b.rows, "multiply: \(a.rows)×\(a.columns) by \(b.rows)×\(b.columns)")
        _ = singleThreaded
        c.reshape(rows: a.rows, columns: b.columns)
        guard a.rows > 0, b.columns > 0 else { return }
        let m = int32(a.rows)
        let n = int32(b.columns)
        let k = int32(a.columns)
        a.storage.withUnsafeBufferPointer { aBuffer in
            b.storage.withUnsafeBufferPointer { bBuffer in
                c.storage.withUnsafeMutableBufferPointer { cBuffer in
                    copenblas_dgemm(
                        COPENBLAS_COL_MAJOR, COPENBLAS_NO_TRANS, COPENBLAS_NO_TRANS, m, n, k, 1, aBuffer.baseAddress,
                        max(1, m), bBuffer.baseAddress, max(1, k), 0, cBuffer.baseAddress, max(1, m))
                }
            }
        }
    }

    /// `y = a·x`, or `y = aᵀ·x` when `transposed`.
    static func multiply(_ a: Matrix, transposed: Bool = false, _ x: [Double], into y: inout [Double]) {
        let (inner, outer) = transposed ? (a.rows, a.columns) : (a.columns, a.rows)
        precondition(x.count == inner, "multiply: \(a.rows)×\(a.columns)\(transposed ? "ᵀ" : "") by \(x.count)")
        _ = singleThreaded
        y.resize(to: outer)
        guard outer > 0 else { return }
        guard inner > 0 else {
            for i in 0..<outer { y[i] = 0 }
            return
        }
        a.storage.withUnsafeBufferPointer { aBuffer in
            x.withUnsafeBufferPointer { xBuffer in
                y.withUnsafeMutableBufferPointer { yBuffer in
                    copenblas_dgemv(
                        COPENBLAS_COL_MAJOR, transposed ? COPENBLAS_TRANS : COPENBLAS_NO_TRANS, int32(a.rows),
                        int32(a.columns), 1, aBuffer.baseAddress, max(1, int32(a.rows)), xBuffer.baseAddress, 1, 0,
                        yBuffer.baseAddress, 1)
                }
            }
        }
    }

    /// Solves `a·x = b` for symmetric positive definite `a` by Cholesky (`dposv`); `b` becomes `x`
    /// and `a` its factor. Throws `notPositiveDefinite` when LAPACK reports a non-positive minor.
    static func solvePositiveDefinite(_ a: inout Matrix, _ b: inout [Double]) throws(LearningError) {
        precondition(a.rows == a.columns && b.count == a.rows, "solve: \(a.rows)×\(a.columns) with \(b.count)")
        // What dposv does: the factor, then the two triangular solves.
        try factorPositiveDefinite(&a)
        solveFactored(a, &b)
    }

    /// Replaces symmetric positive definite `a` by its Cholesky factor `U` (`a = UᵀU`, upper triangle, as
    /// LAPACK's `dpotrf`), for `solveFactored`. Throws `notPositiveDefinite` at the first non-positive minor.
    /// `learning_cholesky_upper`: at a fit's orders (a few dozen) OpenBLAS's blocked `dpotrf`, and its
    /// `dtrsm`-based `dpotrs` even more, spent much of their work on blocking and packing (`Sources/Learning`'s
    /// README, "Linear algebra").
    static func factorPositiveDefinite(_ a: inout Matrix) throws(LearningError) {
        precondition(a.rows == a.columns, "factor: \(a.rows)×\(a.columns)")
        guard a.rows > 0 else { return }
        let minor = a.storage.withUnsafeMutableBufferPointer { learning_cholesky_upper(a.rows, $0.baseAddress!) }
        if minor > 0 { throw .notPositiveDefinite(order: a.rows, minor: minor) }
    }

    /// Solves `a·x = b` with `factor` from `factorPositiveDefinite(a)` (as `dpotrs`); `b` becomes `x`.
    static func solveFactored(_ factor: Matrix, _ b: inout [Double]) {
        precondition(factor.rows == factor.columns && b.count == factor.rows, "solve: \(factor.rows) with \(b.count)")
        guard factor.rows > 0 else { return }
        factor.storage.withUnsafeBufferPointer { u in
            b.withUnsafeMutableBufferPointer {
                learning_cholesky_solve_upper(factor.rows, u.baseAddress!, $0.baseAddress!)
            }
        }
    }

    /// Replaces symmetric `a` by its eigenvectors (columns) and fills `eigenvalues` in ascending order
    /// (`dsyevd`, divide and conquer, the routine NumPy's `eigh` calls). `workspace` is scratch.
    static func eigendecompose(
        _ a: inout Matrix, eigenvalues: inout [Double], workspace: inout EigenWorkspace
    ) throws(LearningError) {
        precondition(a.rows == a.columns, "eigendecompose: \(a.rows)×\(a.columns)")
        let order = a.rows
        eigenvalues.resize(to: order)
        guard order > 0 else { return }
        _ = singleThreaded
        // Workspace sizes from the dsyevd documentation for JOBZ = 'V' (N > 1).
        var lwork = int32(1 + 6 * order + 2 * order * order)
        var liwork = int32(3 + 5 * order)
        workspace.real.resize(to: Int(lwork))
        if workspace.integer.count < Int(liwork) {
            workspace.integer.append(contentsOf: repeatElement(0, count: Int(liwork) - workspace.integer.count))
        }
        var jobz = CChar(UInt8(ascii: "V"))
        var uplo = CChar(UInt8(ascii: "U"))
        var n = int32(order)
        var lda = n
        var info: Int32 = 0
        a.storage.withUnsafeMutableBufferPointer { aBuffer in
            eigenvalues.withUnsafeMutableBufferPointer { wBuffer in
                workspace.real.withUnsafeMutableBufferPointer { work in
                    workspace.integer.withUnsafeMutableBufferPointer { iwork in
                        copenblas_dsyevd(
                            &jobz, &uplo, &n, aBuffer.baseAddress, &lda, wBuffer.baseAddress, work.baseAddress,
                            &lwork, iwork.baseAddress, &liwork, &info, 1, 1)
                    }
                }
            }
        }
        precondition(info >= 0, "dsyevd_: argument \(-info) is invalid")
        if info > 0 { throw .eigenSolverFailed(order: order, info: Int(info)) }
    }

    /// Reduces symmetric `a` to tridiagonal form, `a = Q T Qᵀ` (`dsytrd` then `dorgtr`): `a` is replaced by Q,
    /// `diagonal` and `offDiagonal` receive T. A ridge needs `(T + αI)⁻¹` for many α, and a tridiagonal solve
    /// is O(p), so this replaces a full eigendecomposition (`dsyevd`) at a fraction of its cost
    /// (docs/benchmarks.md).
    static func tridiagonalize(
        _ a: inout Matrix, diagonal: inout [Double], offDiagonal: inout [Double], workspace: inout EigenWorkspace
    ) throws(LearningError) {
        precondition(a.rows == a.columns, "tridiagonalize: \(a.rows)×\(a.columns)")
        let order = a.rows
        diagonal.resize(to: order)
        offDiagonal.resize(to: max(order - 1, 0))
        guard order > 0 else { return }
        _ = singleThreaded
        // A blocked workspace: order × 64 is above LAPACK's optimal block size for both routines.
        var lwork = int32(max(1, order * 64))
        workspace.real.resize(to: Int(lwork) + order)
        var uplo = CChar(UInt8(ascii: "U"))
        var n = int32(order)
        var lda = n
        var info: Int32 = 0
        var scratchOffDiagonal = [Double](repeating: 0, count: order)
        a.storage.withUnsafeMutableBufferPointer { aBuffer in
            diagonal.withUnsafeMutableBufferPointer { d in
                scratchOffDiagonal.withUnsafeMutableBufferPointer { e in
                    workspace.real.withUnsafeMutableBufferPointer { work in
                        let tau = work.baseAddress! + Int(lwork)
                        copenblas_dsytrd(
                            &uplo, &n, aBuffer.baseAddress, &lda, d.baseAddress, e.baseAddress, tau,
                            work.baseAddress, &lwork, &info, 1)
                        precondition(info == 0, "dsytrd_: argument \(-info) is invalid")
                        copenblas_dorgtr(&uplo, &n, aBuffer.baseAddress, &lda, tau, work.baseAddress, &lwork, &info, 1)
                    }
                }
            }
        }
        precondition(info == 0, "dorgtr_: argument \(-info) is invalid")
        for k in 0..<(order - 1) { offDiagonal[k] = scratchOffDiagonal[k] }
    }

    /// `result[i, a] = y_iᵀ (L_a D_a L_aᵀ)⁻¹ y_i` for every row of `y` and each of `penalties` factorizations,
    /// where L_a is unit lower bidiagonal with subdiagonal `multipliers[a(p−1) ..< (a+1)(p−1)]` and
    /// D_a = diag(`pivots[ap ..< (a+1)p]`). The forward substitution runs down the columns for all rows at
    /// once (w ← y_k − l_{k−1}·w; result += w²/d_k), in C compiled for the CPU's widest vectors
    /// (`LearningKernels`): Swift here targets baseline x86-64, two doubles per instruction.
    static func tridiagonalQuadraticForms(
        _ y: Matrix, multipliers: [Double], pivots: [Double], penalties: Int, into result: inout Matrix,
        scratch: inout [Double]
    ) {
        let p = y.columns
        precondition(
            pivots.count == penalties * p && multipliers.count == penalties * max(p - 1, 0), "quadratic forms")
        result.reshape(rows: y.rows, columns: penalties)
        scratch.resize(to: penalties * p)
        guard y.rows > 0, p > 0, penalties > 0 else { return }
        y.storage.withUnsafeBufferPointer { source in
            multipliers.withUnsafeBufferPointer { l in
                pivots.withUnsafeBufferPointer { d in
                    result.storage.withUnsafeMutableBufferPointer { output in
                        scratch.withUnsafeMutableBufferPointer { inverses in
                            learning_tridiagonal_quadratic_forms(
                                y.rows, p, penalties, source.baseAddress, l.baseAddress, d.baseAddress,
                                output.baseAddress, inverses.baseAddress)
                        }
                    }
                }
            }
        }
    }

    /// Scratch for `eigendecompose`, kept between fits.
    struct EigenWorkspace: Sendable {
        var real: [Double] = []
        var integer: [Int32] = []
    }

    // MARK: Elementwise kernels
    // Whole-buffer loops for the fits' hot paths, on raw column pointers: no per-element bounds, uniqueness or
    // overflow checks, so the compiler vectorizes them (an indexed Array loop is far slower).

    /// `centered = x − column means`; `means` receives the means. Returns false if a mean is not finite.
    /// Σ of column `j` of `m`, in eight interleaved partial sums (`learning_sum`): a chain of dependent
    /// additions costs four cycles each, the interleaved ones a fraction of one.
    static func columnSum(_ m: Matrix, _ j: Int) -> Double {
        m.storage.withUnsafeBufferPointer { learning_sum(m.rows, $0.baseAddress! + j * m.rows) }
    }

    /// Σ (x − mean) and Σ (x − mean)² over column `j` of `m`, summed as `columnSum` does.
    static func deviationSums(_ m: Matrix, _ j: Int, mean: Double) -> (deviations: Double, squares: Double) {
        var deviations = 0.0
        var squares = 0.0
        m.storage.withUnsafeBufferPointer {
            learning_deviation_sums(m.rows, $0.baseAddress! + j * m.rows, mean, &deviations, &squares)
        }
        return (deviations, squares)
    }

    /// Σ of the values of column `j` of `m` that are not NaN, and how many there are, summed as `columnSum` does.
    static func observedColumnSum(_ m: Matrix, _ j: Int) -> (sum: Double, count: Int) {
        var count = 0
        let sum = m.storage.withUnsafeBufferPointer {
            learning_observed_sum(m.rows, $0.baseAddress! + j * m.rows, &count)
        }
        return (sum, count)
    }

    /// Σ of `values`, summed as `columnSum` does.
    static func sum(_ values: [Double]) -> Double {
        values.withUnsafeBufferPointer { learning_sum($0.count, $0.baseAddress) }
    }

    /// `centerColumns(_:into:means:)` with `x` its own output: the same values, without a second matrix.
    static func centerColumns(inPlace x: inout Matrix, means: inout [Double]) -> Bool {
        let (n, p) = (x.rows, x.columns)
        return x.storage.withUnsafeMutableBufferPointer { values in
            centerColumns(
                rows: n, columns: p, of: UnsafePointer(values.baseAddress), into: values.baseAddress, means: &means)
        }
    }

    static func centerColumns(_ x: Matrix, into centered: inout Matrix, means: inout [Double]) -> Bool {
        centered.reshape(rows: x.rows, columns: x.columns)
        return x.storage.withUnsafeBufferPointer { source in
            centered.storage.withUnsafeMutableBufferPointer { target in
                centerColumns(
                    rows: x.rows, columns: x.columns, of: source.baseAddress, into: target.baseAddress, means: &means)
            }
        }
    }

    /// Each of the `columns` columns of `source` (`rows` values each, column-major) less its mean, into `target`,
    /// which may be `source` itself; the means into `means`. False when a mean is not finite.
    private static func centerColumns(
        rows n: Int, columns p: Int, of source: UnsafePointer<Double>?, into target: UnsafeMutablePointer<Double>?,
        means: inout [Double]
    ) -> Bool {
        means.resize(to: p)
        guard n > 0, let source, let target else { return true }
        var finite = true
        means.withUnsafeMutableBufferPointer { means in
            for j in 0..<p {
                let column = source + j * n
                let output = target + j * n
                let mean = learning_sum(n, column) / Double(n)
                if !mean.isFinite { finite = false }
                means[j] = mean
                for i in 0..<n { output[i] = column[i] - mean }
            }
        }
        return finite
    }

    /// `c += other + weight·δδᵀ`, the pairwise update of a centred cross-product matrix.
    static func accumulate(_ c: inout Matrix, adding other: Matrix, outer delta: [Double], weight: Double) {
        precondition(c.rows == c.columns && other.rows == c.rows && other.columns == c.columns, "accumulate")
        precondition(delta.count == c.rows, "accumulate: \(delta.count) for order \(c.rows)")
        let n = c.rows
        guard n > 0 else { return }
        other.storage.withUnsafeBufferPointer { source in
            delta.withUnsafeBufferPointer { delta in
                c.storage.withUnsafeMutableBufferPointer { target in
                    for k in 0..<n {
                        let column = target.baseAddress! + k * n
                        let addend = source.baseAddress! + k * n
                        let scaled = weight * delta[k]
                        for j in 0..<n { column[j] += addend[j] + delta[j] * scaled }
                    }
                }
            }
        }
    }

    /// `squared = m ∘ m`.
    static func square(_ m: Matrix, into squared: inout Matrix) {
        squared.reshape(rows: m.rows, columns: m.columns)
        guard !m.storage.isEmpty else { return }
        m.storage.withUnsafeBufferPointer { source in
            squared.storage.withUnsafeMutableBufferPointer { target in
                let input = source.baseAddress!
                let output = target.baseAddress!
                for index in 0..<source.count { output[index] = input[index] * input[index] }
            }
        }
    }

    /// `z = (x − means) / scales`, column by column.
    static func standardize(_ x: Matrix, means: [Double], scales: [Double], into z: inout Matrix) {
        precondition(means.count == x.columns && scales.count == x.columns, "standardize: column count")
        let n = x.rows
        z.reshape(rows: n, columns: x.columns)
        guard n > 0 else { return }
        x.storage.withUnsafeBufferPointer { source in
            z.storage.withUnsafeMutableBufferPointer { target in
                learning_standardize(n, x.columns, source.baseAddress, means, scales, target.baseAddress)
            }
        }
    }

    /// `solutions` (order × 2·penalties): column a is (T + αₐI)⁻¹ `first` and column penalties + a is
    /// (T + αₐI)⁻¹ `second`, from the factors of `RidgeWorkspace.factor` (`learning_tridiagonal_solves`).
    static func tridiagonalSolves(
        multipliers: [Double], pivots: [Double], order p: Int, penalties: Int, first: [Double], second: [Double],
        into solutions: inout Matrix
    ) {
        precondition(first.count == p && second.count == p, "tridiagonalSolves: right-hand sides of order \(p)")
        precondition(pivots.count >= penalties * p && multipliers.count >= penalties * max(p - 1, 0), "factors")
        solutions.reshape(rows: p, columns: 2 * penalties)
        solutions.storage.withUnsafeMutableBufferPointer { out in
            learning_tridiagonal_solves(p, penalties, multipliers, pivots, first, second, out.baseAddress)
        }
    }

    /// The mean squared leave-one-out error of a ridge fit with one penalty, from the columns of `fitted` that
    /// hold the fits of the centred target and of the ones vector, and the column of `hat` that holds the hat
    /// matrix's diagonal (`learning_leave_one_out_error`; `covariance` when the fit solved on XᵀX).
    static func leaveOneOutError(
        covariance: Bool, centeredTarget: [Double], fitted: Matrix, targetColumn: Int, onesColumn: Int, hat: Matrix,
        hatColumn: Int
    ) -> Double {
        let n = centeredTarget.count
        precondition(fitted.rows == n && hat.rows == n, "leaveOneOutError: \(n) targets, \(fitted.rows) fits")
        return centeredTarget.withUnsafeBufferPointer { target in
            fitted.storage.withUnsafeBufferPointer { fits in
                hat.storage.withUnsafeBufferPointer { hats in
                    learning_leave_one_out_error(
                        n, covariance ? 1 : 0, target.baseAddress,
                        fits.baseAddress! + fitted.columnRange(targetColumn).lowerBound,
                        fits.baseAddress! + fitted.columnRange(onesColumn).lowerBound,
                        hats.baseAddress! + hat.columnRange(hatColumn).lowerBound)
                }
            }
        }
    }

    /// For the linear predictors `eta` (to which `shift` and `offset` are added in place) and 0/1 `labels`:
    /// fills `probabilities` with σ(η) and returns Σ log(1 + e^η) − yη, each term computed without overflow
    /// (`learning_logistic_terms`: glibc's vector `exp` and `log1p` where the CPU has AVX-512 or AVX2).
    static func logisticTerms(
        eta: inout [Double], shift: Double, offset: [Double]?, labels: [Double], probabilities: inout [Double]
    ) -> Double {
        precondition(eta.count == labels.count && (offset?.count ?? eta.count) == eta.count, "logisticTerms")
        probabilities.resize(to: eta.count)
        return eta.withUnsafeMutableBufferPointer { eta in
            labels.withUnsafeBufferPointer { labels in
                probabilities.withUnsafeMutableBufferPointer { probabilities in
                    func terms(_ offset: UnsafePointer<Double>?) -> Double {
                        learning_logistic_terms(
                            eta.count, eta.baseAddress, shift, offset, labels.baseAddress, probabilities.baseAddress)
                    }
                    guard let offset else { return terms(nil) }
                    return offset.withUnsafeBufferPointer { terms($0.baseAddress) }
                }
            }
        }
    }

    private static func mirrorUpper(_ c: inout Matrix) {
        let n = c.rows
        for j in 0..<n {
            for i in (j + 1)..<max(j + 1, n) { c.storage[i + j * n] = c.storage[j + i * n] }
        }
    }

    private static func int32(_ value: Int) -> Int32 {
        guard let narrow = Int32(exactly: value) else {
            preconditionFailure("dimension \(value) exceeds LAPACK's Int32")
        }
        return narrow
    }
}
