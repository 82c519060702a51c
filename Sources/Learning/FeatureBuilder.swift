public import Domain
internal import LearningKernels

/// Turns a user's daily logs into features, following a `ModelSpec`.
///
/// The row that predicts day D reads logs of days before D only — its value features describe day D−1,
/// its lags and windows end there — plus the weekday of D, which is known in advance. So no row ever sees
/// the value it predicts or anything after it, and changing a log after D−1 cannot change the row for D.
///
/// Logs may come in any order and with days missing; a log dated on or after the limit (today, or the day
/// predicted) is ignored, so a row dated in the future is never training data.
public struct FeatureBuilder: Sendable {
    public let spec: ModelSpec
    let features: [Feature]
    /// Each feature's kind and input (0 for calendar features), without its name: what `fill` reads per
    /// feature, copied without reference counting.
    private let columns: [(kind: Feature.Kind, input: Int)]
    /// The columns that read a user-only input (severity, mood, energy): those a hidden-yesterday copy redoes.
    private let userOnlyColumns: [Int]

    public init(spec: ModelSpec) {
        self.spec = spec
        features = spec.features
        columns = spec.features.map { ($0.kind, $0.input ?? 0) }
        userOnlyColumns = spec.features.indices.filter { j in
            spec.features[j].input.map { Field.userOnly.contains(spec.inputs[$0].field) } ?? false
        }
    }

    public var featureNames: [String] { features.map(\.name) }

    /// The usable rows predicting days before `today`: a row for day D is usable when the target field is
    /// logged on D and on D−1 (the persistence forecast needs it). Values not logged are NaN.
    ///
    /// Every `training.hideYesterdayEvery`-th usable row (by the ordinal of its day) is followed by a copy built
    /// with the user's own entries of D−1 (severity, mood, energy) removed, as a forecast made early on D,
    /// before the user logged yesterday, sees them. Those copies are training rows only (`isHidden`): they
    /// have no persistence forecast and are never scored.
    public func designMatrix(logs: [DailyLog], today: Day) -> DesignMatrix {
        build(days: logs, today: today)
    }

    /// `designMatrix(logs:today:)` from the days' values alone, as the population's pooling reads them.
    public func designMatrix(values: [DayValues], today: Day) -> DesignMatrix {
        build(days: values, today: today)
    }

    /// `designMatrix(logs:today:)` from the days' values and sources, as a retrain reads them.
    public func designMatrix(days: [SourcedDayValues], today: Day) -> DesignMatrix {
        build(days: days, today: today)
    }

    private func build<Days: FieldValues>(days logs: [Days], today: Day) -> DesignMatrix {
        let series = Series(logs: logs, before: today, spec: spec)
        let raw = series.raw
        var usable: [Int] = []
        if series.count >= 2 {
            for t in 0..<(series.count - 1) where !raw[t + 1].isNaN && !raw[t].isNaN { usable.append(t) }
        }
        let every = spec.training.hideYesterdayEvery
        // The rows in order, each by the series index of its feature day: each usable day, and after a day whose
        // yesterday is hidden (every `every`th), its hidden copy. Each is filled straight into its row of the matrix.
        var order: [(t: Int, hidden: Bool)] = []
        order.reserveCapacity(usable.count + usable.count / max(1, every) + 1)
        var regularPositions: [Int] = []
        regularPositions.reserveCapacity(usable.count)
        var hiddenCopies: [(t: Int, position: Int)] = []
        for t in usable {
            regularPositions.append(order.count)
            order.append((t, false))
            guard series.first.adding(days: t + 1).ordinal % every == 0 else { continue }
            hiddenCopies.append((t, order.count))
            order.append((t, true))
        }
        var values = Matrix(rows: order.count, columns: features.count)
        fill(&values, series: series, rows: usable, positions: regularPositions)
        hideUserEntries(in: &values, series: series, copies: hiddenCopies)
        var rowDays: [Day] = []
        var targets: [Double] = []
        var persistence: [Double] = []
        var hidden: [Bool] = []
        rowDays.reserveCapacity(order.count)
        targets.reserveCapacity(order.count)
        persistence.reserveCapacity(order.count)
        hidden.reserveCapacity(order.count)
        for (t, isHidden) in order {
            rowDays.append(series.first.adding(days: t + 1))
            targets.append(raw[t + 1])
            persistence.append(isHidden ? .nan : raw[t])
            hidden.append(isHidden)
        }
        return DesignMatrix(
            featureNames: featureNames, days: rowDays, targets: targets, persistence: persistence, values: values,
            hidden: hidden)
    }

    /// Writes each hidden-yesterday copy: its regular row (the row before it) with the features that read the
    /// user's entries of the feature day t redone as if t were not logged — exactly what `fill` computes on the
    /// series with those entries hidden, without filling every feature of the row again. The other features
    /// (lags, other inputs, the weekday) do not read them.
    private func hideUserEntries(in values: inout Matrix, series: Series, copies: [(t: Int, position: Int)]) {
        for copy in copies {
            for j in 0..<columns.count { values[copy.position, j] = values[copy.position - 1, j] }
            let t = copy.t
            for j in userOnlyColumns {
                let column = columns[j]
                switch column.kind {
                case .value, .baselineDeviation: values[copy.position, j] = .nan
                case .missing: values[copy.position, j] = 1
                case .lag, .targetWeekday: break
                case .rollingMean(let days):
                    values[copy.position, j] = series.mean(column.input, from: t - days + 1, through: t - 1)
                case .exponentialMean:
                    values[copy.position, j] =
                        t > 0 ? series.exponentialMeans[series.exponentialMeanOffsets[j] + t - 1] : .nan
                }
            }
        }
    }

    /// The features that predict `day`, from logs before it; NaN where a value was not logged.
    public func predictionRow(logs: [DailyLog], for day: Day) -> [Double] {
        let series = Series(logs: logs, before: day, spec: spec, through: day.adding(days: -1))
        var values = Matrix(rows: 1, columns: features.count)
        fill(&values, series: series, rows: [series.count - 1])
        return values.storage
    }

    /// The imputation values for a user: the mean of each feature over `design`'s logged values, and the
    /// spec's typical value (0 for deviations and indicators) for a feature the user never logged, so that
    /// pooled statistics never mix in zeros.
    func imputation(for design: DesignMatrix) -> [Double] {
        design.observedMeans(fallback: features.map { spec.fallbackValue(of: $0) })
    }

    /// Rows from which a window feature is filled from the means of every day of the series (in vector lanes, the
    /// same bits: `Series.everyDayMeans`) rather than row by row: a design's regular rows, not a prediction's or a
    /// hidden copy's one row.
    static let rowsForEveryDayMeans = 16

    /// Features of the rows whose feature days are the indices `rows` of `series` (each predicts the next
    /// index), column by column, into rows `positions` of `values` (0, 1, 2, … when `nil`). The one definition
    /// of every feature, for training and prediction alike.
    private func fill(_ values: inout Matrix, series: Series, rows: [Int], positions: [Int]? = nil) {
        let n = rows.count
        let count = series.count
        let height = values.rows
        let positions = positions ?? Array(0..<n)
        precondition(positions.count == n, "one position per row")
        var means: [Double] = []
        // Through buffer pointers: a row's loop does its arithmetic and nothing else (no bounds checks, no
        // uniqueness checks of `values`), the same arithmetic in the same order as through the arrays.
        values.storage.withUnsafeMutableBufferPointer { out in
            series.values.withUnsafeBufferPointer { observed in
                positions.withUnsafeBufferPointer { at in
                    rows.withUnsafeBufferPointer { rows in
                        /// The value of the input starting at `base` on index `t`, NaN outside the series.
                        @inline(__always) func value(_ base: Int, _ t: Int) -> Double {
                            t >= 0 && t < count ? observed[base + t] : .nan
                        }
                        for (j, column) in columns.enumerated() {
                            let base = j * height
                            let input = column.input * count
                            switch column.kind {
                            case .targetWeekday(let weekday):
                                for i in 0..<n {
                                    let target = series.first.adding(days: rows[i] + 1)
                                    out[base + at[i]] = target.weekday == weekday ? 1 : 0
                                }
                            case .value:
                                for i in 0..<n { out[base + at[i]] = value(input, rows[i]) }
                            case .lag(let days):
                                for i in 0..<n { out[base + at[i]] = value(input, rows[i] - days) }
                            case .missing:
                                for i in 0..<n { out[base + at[i]] = value(input, rows[i]).isNaN ? 1 : 0 }
                            case .rollingMean(let days) where n < Self.rowsForEveryDayMeans:
                                for i in 0..<n {
                                    let t = rows[i]
                                    out[base + at[i]] = series.mean(column.input, from: t - days + 1, through: t)
                                }
                            case .rollingMean(let days):
                                series.everyDayMeans(column.input, from: -days + 1, through: 0, into: &means)
                                means.withUnsafeBufferPointer { means in
                                    for i in 0..<n { out[base + at[i]] = means[rows[i]] }
                                }
                            case .baselineDeviation(let days) where n < Self.rowsForEveryDayMeans:
                                for i in 0..<n {
                                    let t = rows[i]
                                    out[base + at[i]] =
                                        value(input, t) - series.mean(column.input, from: t - days, through: t - 1)
                                }
                            case .baselineDeviation(let days):
                                series.everyDayMeans(column.input, from: -days, through: -1, into: &means)
                                means.withUnsafeBufferPointer { means in
                                    for i in 0..<n { out[base + at[i]] = value(input, rows[i]) - means[rows[i]] }
                                }
                            case .exponentialMean:
                                // The series' own means, every day's computed once as it was read. A value hidden
                                // at t (a hidden-yesterday copy) leaves the mean where day t − 1 left it.
                                series.exponentialMeans.withUnsafeBufferPointer { smoothed in
                                    let start = series.exponentialMeanOffsets[j]
                                    for i in 0..<n {
                                        let t = rows[i]
                                        out[base + at[i]] =
                                            !observed[input + t].isNaN
                                            ? smoothed[start + t] : t > 0 ? smoothed[start + t - 1] : .nan
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A user's inputs as dense day-indexed columns from the first log to the day before a limit; NaN where
/// nothing was logged. Index 0 is `first`. Flat buffers, input-major (input k, day t at `k * count + t`), so
/// reads do not touch nested arrays, and window means are branch-free sums of `zeroed` over `logged`.
private struct Series {
    var first: Day
    var count: Int
    /// Values after the spec's divisor, NaN where not logged.
    var values: [Double]
    /// The same with 0 where not logged, and 1/0 flags of what was logged.
    var zeroed: [Double]
    var logged: [Double]
    /// The target field, undivided.
    var raw: [Double]
    /// Each exponential-mean feature's value on every day of the series as logged
    /// (`appendExponentialMeans(_:alpha:)`), one after another: computed once, since every row reads it.
    var exponentialMeans: [Double] = []
    /// Where each feature column's days start in `exponentialMeans` (−1 for other features).
    var exponentialMeanOffsets: [Int]

    init<Days: FieldValues>(logs: [Days], before limit: Day, spec: ModelSpec, through last: Day? = nil) {
        var earliest: Day?
        for log in logs where log.day < limit {
            if earliest == nil || log.day < earliest! { earliest = log.day }
        }
        let end = last ?? limit.adding(days: -1)
        first = earliest ?? end
        count = max(0, first.distance(to: end) + 1)
        values = Array(repeating: .nan, count: count * spec.inputs.count)
        zeroed = Array(repeating: 0, count: count * spec.inputs.count)
        logged = Array(repeating: 0, count: count * spec.inputs.count)
        raw = Array(repeating: .nan, count: count)
        for log in logs where log.day < limit && log.day >= first {
            let index = first.distance(to: log.day)
            guard index < count else { continue }
            for (k, input) in spec.inputs.enumerated() {
                if let value = log.value(of: input.field) {
                    values[k * count + index] = value / input.divisor
                    zeroed[k * count + index] = value / input.divisor
                    logged[k * count + index] = 1
                }
            }
            if let value = log.value(of: spec.target.field) { raw[index] = value }
        }
        exponentialMeanOffsets = Array(repeating: -1, count: spec.features.count)
        var levelStarts: [Int: [Int32]] = [:]
        for (j, feature) in spec.features.enumerated() {
            guard case .exponentialMean(let alpha) = feature.kind, let input = feature.input else { continue }
            if levelStarts[input] == nil, let shift = spec.inputs[input].levelShift {
                levelStarts[input] = self.levelStarts(input, shift)
            }
            exponentialMeanOffsets[j] = exponentialMeans.count
            appendExponentialMeans(input, alpha: alpha, starts: levelStarts[input])
        }
    }

    /// For every index t, where the level of the input's values logged through t began (`ModelSpec.LevelShift`):
    /// the index of the first value of the later run of the split that marks a change, or 0 where none does
    /// (`learning_level_starts`).
    private func levelStarts(_ input: Int, _ shift: ModelSpec.LevelShift) -> [Int32] {
        var starts = [Int32](repeating: 0, count: count)
        var scratch = [Double](repeating: 0, count: 3 * (count + 1))
        var positions = [Int32](repeating: 0, count: count)
        let base = input * count
        zeroed.withUnsafeBufferPointer { zeroed in
            logged.withUnsafeBufferPointer { logged in
                guard let zeroed = zeroed.baseAddress, let logged = logged.baseAddress else { return }
                learning_level_starts(
                    count, zeroed + base, logged + base, shift.threshold, shift.minimumDays, shift.searchDays,
                    shift.minimumDeviation, &scratch, &positions, &starts)
            }
        }
        return starts
    }

    /// `mean(input, from: t + from, through: t + through)` for every index t of the series, into `output`
    /// (`learning_window_means`, the same bits).
    func everyDayMeans(_ input: Int, from: Int, through: Int, into output: inout [Double]) {
        output.resize(to: count)
        let base = input * count
        zeroed.withUnsafeBufferPointer { zeroed in
            logged.withUnsafeBufferPointer { logged in
                output.withUnsafeMutableBufferPointer { output in
                    guard let zeroed = zeroed.baseAddress, let logged = logged.baseAddress else { return }
                    learning_window_means(count, zeroed + base, logged + base, from, through, output.baseAddress)
                }
            }
        }
    }

    /// For every index t, the exponentially weighted mean of the input's values logged at indices up to t:
    /// each logged value weighs (1 − α)^k, k the number of values logged after it, and the sum is divided by
    /// the sum of the weights (NaN before the first logged value). Simple exponential smoothing over the
    /// logged days, started from the first, with a short history's weights normalized.
    private mutating func appendExponentialMeans(_ input: Int, alpha: Double, starts: [Int32]?) {
        let (base, days) = (input * count, count)
        let start = exponentialMeans.count
        exponentialMeans.append(contentsOf: repeatElement(0, count: count))
        zeroed.withUnsafeBufferPointer { zeroed in
            logged.withUnsafeBufferPointer { logged in
                exponentialMeans.withUnsafeMutableBufferPointer { out in
                    guard let zeroed = zeroed.baseAddress, let logged = logged.baseAddress,
                        let out = out.baseAddress
                    else { return }
                    let means = { (starts: UnsafePointer<Int32>?) in
                        learning_exponential_means(days, zeroed + base, logged + base, alpha, starts, out + start)
                    }
                    if let starts { starts.withUnsafeBufferPointer { means($0.baseAddress) } } else { means(nil) }
                }
            }
        }
    }

    /// The mean of the logged values at indices `from...through` (clipped to the series); NaN if none.
    func mean(_ input: Int, from start: Int, through end: Int) -> Double {
        let lower = max(start, 0)
        let upper = min(end, count - 1)
        guard lower <= upper else { return .nan }
        let base = input * count
        var sum = 0.0
        var days = 0.0
        for t in (base + lower)...(base + upper) {
            sum += zeroed[t]
            days += logged[t]
        }
        return days > 0 ? sum / days : .nan
    }
}
