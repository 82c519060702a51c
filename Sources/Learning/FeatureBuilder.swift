public import Domain

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

    public init(spec: ModelSpec) {
        self.spec = spec
        features = spec.features
    }

    public var featureNames: [String] { features.map(\.name) }

    /// The usable rows predicting days before `today`: a row for day D is usable when the target field is
    /// logged on D and on D−1 (the persistence forecast needs it). Values not logged are NaN.
    public func designMatrix(logs: [DailyLog], today: Day) -> DesignMatrix {
        let series = Series(logs: logs, before: today, spec: spec)
        let raw = series.raw
        var usable: [Int] = []
        if series.count >= 2 {
            for t in 0..<(series.count - 1) where !raw[t + 1].isNaN && !raw[t].isNaN { usable.append(t) }
        }
        var values = Matrix(rows: usable.count, columns: features.count)
        var row = [Double](repeating: 0, count: features.count)
        for (i, t) in usable.enumerated() {
            fill(&row, series: series, at: t)
            for j in 0..<features.count { values[i, j] = row[j] }
        }
        return DesignMatrix(
            featureNames: featureNames, days: usable.map { series.first.adding(days: $0 + 1) },
            targets: usable.map { raw[$0 + 1] }, persistence: usable.map { raw[$0] }, values: values)
    }

    /// The features that predict `day`, from logs before it; NaN where a value was not logged.
    public func predictionRow(logs: [DailyLog], for day: Day) -> [Double] {
        var row = [Double](repeating: 0, count: features.count)
        let series = Series(logs: logs, before: day, spec: spec, through: day.adding(days: -1))
        fill(&row, series: series, at: series.count - 1)
        return row
    }

    /// The imputation values for a user: the mean of each feature over `design`'s logged values, and the
    /// spec's typical value (0 for deviations and indicators) for a feature the user never logged, so that
    /// pooled statistics never mix in zeros.
    func imputation(for design: DesignMatrix) -> [Double] {
        design.observedMeans(fallback: features.map { spec.fallbackValue(of: $0) })
    }

    /// Features of the row whose feature day is index `t` of `series` (it predicts index t+1).
    private func fill(_ row: inout [Double], series: Series, at t: Int) {
        let predicted = series.first.adding(days: t + 1)
        for (j, feature) in features.enumerated() {
            switch feature.kind {
            case .targetWeekday(let weekday):
                row[j] = predicted.weekday == weekday ? 1 : 0
            case .value:
                row[j] = series.value(feature.input!, t)
            case .lag(let days):
                row[j] = series.value(feature.input!, t - days)
            case .missing:
                row[j] = series.value(feature.input!, t).isNaN ? 1 : 0
            case .rollingMean(let days):
                row[j] = series.mean(feature.input!, from: t - days + 1, through: t)
            case .baselineDeviation(let days):
                let baseline = series.mean(feature.input!, from: t - days, through: t - 1)
                row[j] = series.value(feature.input!, t) - baseline
            }
        }
    }
}

/// A user's inputs as dense day-indexed columns from the first log to the day before a limit; NaN where
/// nothing was logged. Index 0 is `first`.
private struct Series {
    var first: Day
    var count: Int
    /// Per input, its values after the spec's divisor.
    var values: [[Double]]
    /// The target field, undivided.
    var raw: [Double]

    init(logs: [DailyLog], before limit: Day, spec: ModelSpec, through last: Day? = nil) {
        var earliest: Day?
        for log in logs where log.day < limit {
            if earliest == nil || log.day < earliest! { earliest = log.day }
        }
        let end = last ?? limit.adding(days: -1)
        first = earliest ?? end
        count = max(0, first.distance(to: end) + 1)
        values = Array(repeating: Array(repeating: .nan, count: count), count: spec.inputs.count)
        raw = Array(repeating: .nan, count: count)
        for log in logs where log.day < limit && log.day >= first {
            let index = first.distance(to: log.day)
            guard index < count else { continue }
            for (k, input) in spec.inputs.enumerated() {
                if let value = log.value(of: input.field) { values[k][index] = value / input.divisor }
            }
            if let value = log.value(of: spec.target.field) { raw[index] = value }
        }
    }

    /// The value at index `t`, NaN before the first day.
    func value(_ input: Int, _ t: Int) -> Double {
        t >= 0 && t < count ? values[input][t] : .nan
    }

    /// The mean of the logged values at indices `from...through` (clipped to the series); NaN if none.
    func mean(_ input: Int, from start: Int, through end: Int) -> Double {
        var sum = 0.0
        var logged = 0
        let column = values[input]
        var t = max(start, 0)
        while t <= min(end, count - 1) {
            let value = column[t]
            if !value.isNaN {
                sum += value
                logged += 1
            }
            t += 1
        }
        return logged > 0 ? sum / Double(logged) : .nan
    }
}
