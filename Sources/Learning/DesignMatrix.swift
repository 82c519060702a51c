public import Domain
internal import LearningKernels

/// The rows a fit learns from: one per usable day, its features (columns named by the spec) and its
/// target, the target field's value on the row's day.
///
/// A row for day D is built only from logs of days before D (see `FeatureBuilder`). A value that was not
/// logged is NaN until `imputed(with:)` replaces it; a fit only ever sees an imputed matrix.
public struct DesignMatrix: Sendable {
    public let featureNames: [String]
    /// The day each row predicts, ascending. Its features use data through the day before.
    public private(set) var days: [Day]
    /// The target field on `days`.
    public private(set) var targets: [Double]
    /// The target field on the day before each row's day: the "tomorrow = today" forecast.
    private(set) var persistence: [Double]
    private(set) var values: Matrix
    /// Rows built with the user's entries of the day before hidden (see `FeatureBuilder.designMatrix`):
    /// training rows only.
    private(set) var hidden: [Bool]

    init(
        featureNames: [String], days: [Day], targets: [Double], persistence: [Double], values: Matrix,
        hidden: [Bool]? = nil
    ) {
        precondition(values.columns == featureNames.count && values.rows == days.count, "design shape")
        precondition(targets.count == days.count && persistence.count == days.count, "design rows")
        self.featureNames = featureNames
        self.days = days
        self.targets = targets
        self.persistence = persistence
        self.values = values
        self.hidden = hidden ?? Array(repeating: false, count: days.count)
        precondition(self.hidden.count == days.count, "design rows")
    }

    /// Rows that are not hidden-yesterday copies: the user's usable days.
    public var usableRowCount: Int { hidden.lazy.filter { !$0 }.count }

    /// Whether row `index` is a copy with the user's entries of the day before hidden (a training row only).
    public func isHidden(_ index: Int) -> Bool { hidden[index] }

    public var rowCount: Int { values.rows }
    public var columnCount: Int { values.columns }

    /// A feature value; NaN when it was not logged and the matrix is not imputed.
    public func value(row: Int, column: Int) -> Double { values[row, column] }

    /// One row's features.
    public func row(_ index: Int) -> [Double] { (0..<columnCount).map { values[index, $0] } }

    /// The rows in `range`, in order.
    func rows(_ range: Range<Int>) -> DesignMatrix {
        var storage: [Double] = []
        storage.reserveCapacity(range.count * columnCount)
        for j in 0..<columnCount {
            storage.append(
                contentsOf: values.storage[(j * rowCount + range.lowerBound)..<(j * rowCount + range.upperBound)])
        }
        let subset = Matrix(rows: range.count, columns: columnCount, storage: storage)
        return DesignMatrix(
            featureNames: featureNames, days: Array(days[range]), targets: Array(targets[range]),
            persistence: Array(persistence[range]), values: subset, hidden: Array(hidden[range]))
    }

    /// The mean of the logged values of each column, `fallback[j]` for a column with none.
    func observedMeans(fallback: [Double]) -> [Double] {
        precondition(fallback.count == columnCount, "fallback for \(fallback.count) of \(columnCount) columns")
        var means = fallback
        for j in 0..<columnCount {
            let (sum, count) = LinearAlgebra.observedColumnSum(values, j)
            if count > 0 { means[j] = sum / Double(count) }
        }
        return means
    }

    /// The matrix with every missing value replaced by its column's entry in `imputation`.
    public func imputed(with imputation: [Double]) -> DesignMatrix {
        // One pass into a new buffer: changing a copy in place would first copy every value, then test each.
        let count = values.storage.count
        let storage = [Double](unsafeUninitializedCapacity: count) { buffer, initialized in
            writeImputed(with: imputation, into: buffer)
            initialized = count
        }
        var copy = self
        copy.values = Matrix(rows: rowCount, columns: columnCount, storage: storage)
        return copy
    }

    /// `imputed(with:)`'s values, column-major, into the first `rowCount × columnCount` values of `buffer`: the
    /// first columns of a wider matrix with as many rows.
    func writeImputed(with imputation: [Double], into buffer: UnsafeMutableBufferPointer<Double>) {
        precondition(imputation.count == columnCount, "imputation for \(imputation.count) of \(columnCount) columns")
        precondition(buffer.count >= values.storage.count, "room for the imputed values")
        values.storage.withUnsafeBufferPointer { source in
            guard let source = source.baseAddress, let target = buffer.baseAddress else { return }
            learning_impute(rowCount, columnCount, source, imputation, target)
        }
    }

    /// Whether any value is missing.
    public var hasMissingValues: Bool { values.storage.contains { $0.isNaN } }
}

extension DesignMatrix {
    /// CSV with a header: `day`, the feature names, then `target`. Numbers are written in the shortest form
    /// that reads back to the same double, so a reader (scikit-learn, a spreadsheet) sees exactly the
    /// matrix the fit used. A missing value is an empty cell.
    public func csv() -> String {
        var text = (["day"] + featureNames + ["target"]).joined(separator: ",") + "\n"
        for i in 0..<rowCount {
            text += days[i].description
            for j in 0..<columnCount {
                let value = values[i, j]
                text += value.isNaN ? "," : ",\(value)"
            }
            text += ",\(targets[i])\n"
        }
        return text
    }

    /// Reads what `csv()` wrote. Rows without a `day` column get consecutive days from 2000-01-01, and the
    /// persistence forecast is unknown (NaN): the matrix serves fitting and measuring, not evaluation.
    public init(csv text: String) throws(LearningError) {
        var lines = text.split(whereSeparator: \.isNewline).map(String.init)
        guard !lines.isEmpty else { throw .malformedCSV(line: 1, problem: "no header") }
        let header = lines.removeFirst().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let hasDay = header.first == "day"
        guard header.last == "target", header.count >= (hasDay ? 3 : 2) else {
            throw .malformedCSV(line: 1, problem: "the header must end with target after at least one feature")
        }
        let names = Array(header[(hasDay ? 1 : 0)..<(header.count - 1)])
        var values = Matrix(rows: lines.count, columns: names.count)
        var days: [Day] = []
        var targets: [Double] = []
        let origin = Day(year: 2000, month: 1, day: 1)!
        for (i, line) in lines.enumerated() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            guard cells.count == header.count else {
                throw .malformedCSV(line: i + 2, problem: "\(cells.count) cells for \(header.count) columns")
            }
            if hasDay {
                guard let day = Day(cells[0]) else {
                    throw .malformedCSV(line: i + 2, problem: "day is not YYYY-MM-DD")
                }
                days.append(day)
            } else {
                days.append(origin.adding(days: i))
            }
            for j in 0..<names.count {
                let cell = cells[j + (hasDay ? 1 : 0)]
                if cell.isEmpty {
                    values[i, j] = .nan
                } else if let value = Double(cell), value.isFinite {
                    values[i, j] = value
                } else {
                    throw .malformedCSV(line: i + 2, problem: "column \(names[j]) is not a number")
                }
            }
            guard let target = Double(cells[cells.count - 1]), target.isFinite else {
                throw .malformedCSV(line: i + 2, problem: "target is not a number")
            }
            targets.append(target)
        }
        self.init(
            featureNames: names, days: days, targets: targets,
            persistence: Array(repeating: .nan, count: targets.count), values: values)
    }
}
