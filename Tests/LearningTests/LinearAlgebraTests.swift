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

    @Test("the Gram matrices of a 3×2 matrix are AᵀA and AAᵀ")
    func gram() {
        let a = Matrix(rowMajor: [[1, 2], [3, 4], [5, 6]])
        var c = Matrix(rows: 0, columns: 0)
        LinearAlgebra.gram(a, into: &c)
        #expect(c == Matrix(rowMajor: [[35, 44], [44, 56]]))
        LinearAlgebra.outerGram(a, into: &c)
        #expect(c == Matrix(rowMajor: [[5, 11, 17], [11, 25, 39], [17, 39, 61]]))
        var product: [Double] = []
        LinearAlgebra.multiply(a, transposed: true, [1, 1, 1], into: &product)
        #expect(product == [9, 12])
    }
}
