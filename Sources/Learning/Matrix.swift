/// A dense matrix of `Double` in column-major order, LAPACK's layout: element (i, j) is at `i + j * rows`,
/// so each column is contiguous. Buffers are reused across fits: `reshape` keeps the capacity.
struct Matrix: Sendable, Hashable {
    private(set) var rows: Int
    private(set) var columns: Int
    var storage: [Double]

    init(rows: Int, columns: Int, repeating value: Double = 0) {
        precondition(rows >= 0 && columns >= 0, "negative matrix dimension")
        self.rows = rows
        self.columns = columns
        storage = Array(repeating: value, count: rows * columns)
    }

    /// A matrix over `storage`, in column-major order.
    init(rows: Int, columns: Int, storage: [Double]) {
        precondition(rows >= 0 && columns >= 0 && storage.count == rows * columns, "matrix shape and storage")
        self.rows = rows
        self.columns = columns
        self.storage = storage
    }

    /// A matrix from rows of equal length, for tests and small constants.
    init(rowMajor values: [[Double]]) {
        let columns = values.first?.count ?? 0
        precondition(values.allSatisfy { $0.count == columns }, "ragged rows")
        self.init(rows: values.count, columns: columns)
        for (i, row) in values.enumerated() {
            for (j, value) in row.enumerated() { storage[i + j * rows] = value }
        }
    }

    subscript(row: Int, column: Int) -> Double {
        get { storage[row + column * rows] }
        set { storage[row + column * rows] = newValue }
    }

    /// Changes the shape, keeping the allocation when it is large enough; the contents are unspecified
    /// except that every element is finite (zero or an old value).
    mutating func reshape(rows: Int, columns: Int) {
        precondition(rows >= 0 && columns >= 0, "negative matrix dimension")
        self.rows = rows
        self.columns = columns
        let count = rows * columns
        if storage.count < count {
            storage.append(contentsOf: repeatElement(0, count: count - storage.count))
        } else if storage.count > count {
            storage.removeLast(storage.count - count)
        }
    }

    /// Column `j` as a range of `storage`.
    func columnRange(_ j: Int) -> Range<Int> { (j * rows)..<((j + 1) * rows) }
}

extension Array where Element == Double {
    /// Resizes, keeping the allocation; new elements are zero.
    mutating func resize(to count: Int) {
        if self.count < count {
            append(contentsOf: repeatElement(0, count: count - self.count))
        } else if self.count > count {
            removeLast(self.count - count)
        }
    }
}
