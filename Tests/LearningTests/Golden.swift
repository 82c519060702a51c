import Foundation
import TestSupport

@testable import Learning

/// A case written by scripts/reference/make_goldens.py (scikit-learn 1.9.1, pinned in
/// scripts/reference/requirements.txt). See that script for what each field is.
struct Golden: Decodable {
    struct Fit: Decodable {
        var alpha: Double?
        var coefficients: [Double]
        var intercept: Double
        var meanSquaredError: Double?
    }

    struct Logistic: Decodable {
        var coefficients: [Double]?
        var intercept: Double?
        var error: String?
    }

    var name: String
    var standardized: Bool
    var x: [[Double]]
    var y: [Double]
    var alphas: [Double]
    /// scikit-learn's `C`.
    var inverseRegularization: Double
    var threshold: Double
    var standardization: Standardization?
    var ridge: [Fit]
    var ridgecv: Fit
    var logistic: Logistic

    enum CodingKeys: String, CodingKey {
        case name, standardized, x, y, alphas, threshold, standardization, ridge, ridgecv, logistic
        case inverseRegularization = "C"
    }

    static let names = [
        "tall", "tall_unscaled", "constant_column", "wide", "equal_targets", "design", "separable_flares",
    ]

    static func load(_ name: String) throws -> Golden {
        let url = directory(of: #filePath).appendingPathComponent("Goldens/\(name).json")
        return try JSONDecoder().decode(Golden.self, from: Data(contentsOf: url))
    }

    /// The matrix the models were fitted on: scaled by Learning's own standardization when the case says so.
    func design() -> (matrix: Matrix, standardization: Standardization?) {
        let raw = Matrix(rowMajor: x)
        guard standardized else { return (raw, nil) }
        let standardization = Standardization(fitting: raw)
        var scaled = Matrix(rows: 0, columns: 0)
        standardization.apply(raw, into: &scaled)
        return (scaled, standardization)
    }
}

/// Largest elementwise difference relative to the reference vector's largest magnitude (a norm-wise
/// relative error, so a coefficient that is zero in exact arithmetic is judged against the others).
func relativeError(_ actual: [Double], _ expected: [Double]) -> Double {
    precondition(actual.count == expected.count, "lengths differ")
    let scale = max(expected.map(abs).max() ?? 0, 1e-300)
    return zip(actual, expected).map { abs($0 - $1) }.max().map { $0 / scale } ?? 0
}
