/// Per-column centring and scaling, `z = (x − mean) / scale`, as scikit-learn's `StandardScaler` computes
/// it: population standard deviation (divisor n), two-pass variance with its rounding correction, and a
/// scale of 1 for a column indistinguishable from a constant (Chan, Golub & LeVeque's error bound, the
/// test in `sklearn.preprocessing._data._is_constant_feature`).
public struct Standardization: Sendable, Hashable, Codable {
    public var means: [Double]
    public var scales: [Double]

    public init(means: [Double], scales: [Double]) {
        precondition(means.count == scales.count, "standardization: \(means.count) means, \(scales.count) scales")
        self.means = means
        self.scales = scales
    }

    /// Fits the columns of `x`.
    init(fitting x: Matrix) {
        let n = Double(x.rows)
        var means = [Double](repeating: 0, count: x.columns)
        var scales = [Double](repeating: 1, count: x.columns)
        for j in 0..<x.columns {
            let mean = LinearAlgebra.columnSum(x, j) / n
            let (correction, squares) = LinearAlgebra.deviationSums(x, j, mean: mean)
            let variance = (squares - correction * correction / n) / n
            means[j] = mean
            let bound = n * Double.ulpOfOne * variance + (n * mean * Double.ulpOfOne) * (n * mean * Double.ulpOfOne)
            scales[j] = variance <= bound ? 1 : variance.squareRoot()
        }
        self.init(means: means, scales: scales)
    }

    /// Writes the standardized `x` into `z`.
    func apply(_ x: Matrix, into z: inout Matrix) {
        LinearAlgebra.standardize(x, means: means, scales: scales, into: &z)
    }

    /// Standardizes `x` where it is, for a matrix too large to keep twice (the population's flare sample):
    /// the same arithmetic as `apply(_:into:)`, so the same bits.
    func applyInPlace(_ x: inout Matrix) {
        precondition(means.count == x.columns, "standardize: column count")
        let n = x.rows
        x.storage.withUnsafeMutableBufferPointer { values in
            for j in 0..<means.count {
                let mean = means[j]
                let scale = scales[j]
                for i in (j * n)..<((j + 1) * n) { values[i] = (values[i] - mean) / scale }
            }
        }
    }
}
