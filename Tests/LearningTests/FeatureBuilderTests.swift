import Domain
import Foundation
import TestSupport
import Testing

@testable import Learning

@Suite("Features from daily logs")
struct FeatureBuilderTests {
    static let spec = ModelSpec.symptomForecast
    static let builder = FeatureBuilder(spec: spec)
    static let user = UserID("feature-user")!
    static let start = Day("2026-01-01")!

    static func column(_ name: String) -> Int { spec.featureNames.firstIndex(of: name)! }

    /// 60 days of a seeded cohort member, some days and fields unlogged.
    static func logs(seed: UInt64 = 11) -> [DailyLog] {
        var random = SeededGenerator(seed: seed)
        return SyntheticUser.make(id: user, days: 60, start: start, random: &random).logs
    }

    @Test("the embedded spec decodes and names its features in a stable order")
    func specDecodes() {
        let names = Self.spec.featureNames
        #expect(Self.spec.version == 4)
        #expect(Self.spec.training.minimumUsableDays == 14 && Self.spec.training.holdoutDays == 84)
        #expect(Self.spec.flare.threshold == 7)
        #expect(names.first == "severity")
        #expect(names.contains("sleep_hours_mean7") && names.contains("hrv_dev28") && names.contains("steps_k_missing"))
        #expect(
            names[..<8] == [
                "severity", "severity_lag1", "severity_mean7", "severity_missing", "severity_ewm05", "severity_ewm15",
                "severity_ewm30", "severity_ewm50",
            ])
        #expect(names.count == 43)
        #expect(
            names.suffix(7) == [
                "weekday_mon", "weekday_tue", "weekday_wed", "weekday_thu", "weekday_fri",
                "weekday_sat", "weekday_sun",
            ])
    }

    @Test("a spec with a non-positive penalty is rejected with a message naming the part")
    func invalidSpec() throws {
        var text = try String(
            contentsOf: repositoryRoot.appendingPathComponent("Models/symptom-forecast.json"), encoding: .utf8)
        text = text.replacingOccurrences(of: "\"alphas\": [0.01,", with: "\"alphas\": [0,")
        #expect(throws: LearningError.invalidSpec(problem: "ridge.alphas must be positive finite numbers")) {
            try ModelSpec(json: Array(text.utf8))
        }
    }

    @Test("changing every log after day t leaves the features of the row predicting t+1 unchanged")
    func noLeakage() throws {
        let original = Self.logs()
        let today = Self.start.adding(days: 60)
        for cut in [20, 35, 50] {
            let t = Self.start.adding(days: cut)
            // Every later row changes (different severities, metrics, fields removed), and extra future rows appear.
            let altered =
                original.map { log -> DailyLog in
                    guard log.day > t else { return log }
                    var changed = log
                    changed.symptomSeverity = 10 - (log.symptomSeverity ?? 5)
                    changed.sleepDuration = Sourced(3600, .user)
                    changed.hrv = nil
                    changed.stepCount = Sourced(150_000, .health)
                    changed.mood = 1
                    return changed
                } + [DailyLog(user: Self.user, day: today.adding(days: 3), symptomSeverity: 9)]
            let before = Self.builder.designMatrix(logs: original, today: today)
            let after = Self.builder.designMatrix(logs: altered, today: today)
            let rowBefore = try #require(before.days.firstIndex(of: t.adding(days: 1)))
            let rowAfter = try #require(after.days.firstIndex(of: t.adding(days: 1)))
            #expect(Self.sameFeatures(before.row(rowBefore), after.row(rowAfter)))
            #expect(
                Self.sameFeatures(
                    Self.builder.predictionRow(logs: original, for: t.adding(days: 1)),
                    Self.builder.predictionRow(logs: altered, for: t.adding(days: 1))))
            // The prediction row is the training row: one definition of a feature.
            #expect(
                Self.sameFeatures(
                    before.row(rowBefore), Self.builder.predictionRow(logs: original, for: t.adding(days: 1))))
            // Every earlier row is unchanged as well.
            for i in 0..<rowBefore { #expect(Self.sameFeatures(before.row(i), after.row(i))) }
        }
    }

    /// A design's window features come from the means of every day of the series, eight days side by side
    /// (`learning_window_means`); a prediction row's, one row at a time. Over a year with unlogged days, each
    /// training row must still equal its day's prediction row exactly.
    @Test("every training row is, to the bit, the prediction row of its day")
    func trainingRowsArePredictionRows() {
        var random = SeededGenerator(seed: 29)
        let logs = SyntheticUser.make(id: Self.user, days: 365, start: Self.start, random: &random).logs
        let design = Self.builder.designMatrix(logs: logs, today: Self.start.adding(days: 365))
        #expect(design.rowCount > 2 * FeatureBuilder.rowsForEveryDayMeans)
        var compared = 0
        for i in 0..<design.rowCount where !design.isHidden(i) {
            let row = Self.builder.predictionRow(logs: logs, for: design.days[i])
            #expect(Self.sameFeatures(design.row(i), row), "the row predicting \(design.days[i])")
            compared += 1
        }
        #expect(compared > 300)
    }

    /// A hidden-yesterday copy is what a forecast made early on its day sees: the prediction row from the logs
    /// with the person's own entries of the day before removed (health metrics of that day stay).
    @Test("every hidden-yesterday copy is, to the bit, the prediction row without yesterday's own entries")
    func hiddenRowsArePredictionRows() {
        var random = SeededGenerator(seed: 37)
        let logs = SyntheticUser.make(id: Self.user, days: 365, start: Self.start, random: &random).logs
        let design = Self.builder.designMatrix(logs: logs, today: Self.start.adding(days: 365))
        var compared = 0
        for i in 0..<design.rowCount where design.isHidden(i) {
            let yesterday = design.days[i].adding(days: -1)
            let early = logs.map { log -> DailyLog in
                guard log.day == yesterday else { return log }
                var copy = log
                copy.symptomSeverity = nil
                copy.mood = nil
                copy.energy = nil
                return copy
            }
            let row = Self.builder.predictionRow(logs: early, for: design.days[i])
            #expect(Self.sameFeatures(design.row(i), row), "the hidden copy predicting \(design.days[i])")
            compared += 1
        }
        #expect(compared > 40)
    }

    @Test("a year's values alone (no notes, no sources) build the very design matrix its logs do")
    func valuesBuildTheSameDesign() {
        var random = SeededGenerator(seed: 31)
        let logs = SyntheticUser.make(id: Self.user, days: 365, start: Self.start, random: &random).logs
        let today = Self.start.adding(days: 365)
        let fromLogs = Self.builder.designMatrix(logs: logs, today: today)
        let fromValues = Self.builder.designMatrix(values: logs.map(DayValues.init), today: today)
        #expect(fromLogs.rowCount > 300)
        #expect(fromValues.csv() == fromLogs.csv())
        #expect(
            fromValues.days == fromLogs.days
                && (0..<fromLogs.rowCount).allSatisfy {
                    fromValues.isHidden($0) == fromLogs.isHidden($0)
                })
    }

    @Test("a log dated today or later is never training data")
    func futureRowsIgnored() {
        let today = Self.start.adding(days: 30)
        let logs = Self.logs().filter { $0.day < today }
        let withFuture =
            logs + [
                DailyLog(user: Self.user, day: today, symptomSeverity: 8),
                DailyLog(user: Self.user, day: today.adding(days: 1), symptomSeverity: 2),
            ]
        let design = Self.builder.designMatrix(logs: withFuture, today: today)
        let without = Self.builder.designMatrix(logs: logs, today: today)
        #expect(design.days.allSatisfy { $0 < today })
        #expect(design.days == without.days && design.targets == without.targets)
        for i in 0..<design.rowCount { #expect(Self.sameFeatures(design.row(i), without.row(i))) }
    }

    @Test("windows average only the logged days, lags of unlogged days are missing, indicators say so")
    func handComputedRow() throws {
        let day = { (offset: Int) in Self.start.adding(days: offset) }
        // Sleep logged on days 0, 1, 3, 4 (hours 6, 8, 5, 7); day 2 has no log at all; day 4 has no HRV.
        let logs = [
            DailyLog(
                user: Self.user, day: day(0), symptomSeverity: 3, hrv: Sourced(40, .health),
                sleepDuration: Sourced(6 * 3600, .health)),
            DailyLog(
                user: Self.user, day: day(1), symptomSeverity: 4, hrv: Sourced(50, .health),
                sleepDuration: Sourced(8 * 3600, .health)),
            DailyLog(
                user: Self.user, day: day(3), symptomSeverity: 6, hrv: Sourced(60, .health),
                sleepDuration: Sourced(5 * 3600, .health)),
            DailyLog(user: Self.user, day: day(4), symptomSeverity: 5, sleepDuration: Sourced(7 * 3600, .user)),
            DailyLog(user: Self.user, day: day(5), symptomSeverity: 7),
        ]
        let design = Self.builder.designMatrix(logs: logs, today: day(6))
        // Usable rows need the severity on the day and the day before: days 1, 4 and 5.
        #expect(design.days == [day(1), day(4), day(5)])
        #expect(design.targets == [4, 5, 7])
        let row = design.row(2)  // predicts day 5 from days 0…4
        func value(_ name: String) -> Double { row[Self.column(name)] }
        #expect(value("severity") == 5)
        #expect(value("severity_lag1") == 6)
        #expect(abs(value("severity_mean7") - (3 + 4 + 6 + 5) / 4.0) < 1e-12)
        // Severities 3, 4, 6, 5 logged, the newest weighing 1, each older half the one after (α = 0.5).
        #expect(
            abs(value("severity_ewm50") - (5 + 6 / 2.0 + 4 / 4.0 + 3 / 8.0) / (1 + 1 / 2.0 + 1 / 4.0 + 1 / 8.0)) < 1e-12
        )
        #expect(value("sleep_hours_lag2").isNaN)  // day 2 was not logged
        #expect(abs(value("sleep_hours_dev28") - (7 - (6 + 8 + 5) / 3.0)) < 1e-12)
        #expect(value("sleep_hours") == 7)
        #expect(abs(value("sleep_hours_mean7") - (6 + 8 + 5 + 7) / 4.0) < 1e-12)
        #expect(value("hrv").isNaN && value("hrv_missing") == 1 && value("hrv_dev28").isNaN)
        #expect(value("hrv_lag1") == 60)
        #expect(value("sleep_hours_missing") == 0)
        // Day 5 (2026-01-06) is a Tuesday: the weekday of the predicted day, not of the data.
        #expect(value("weekday_tue") == 1 && value("weekday_mon") == 0)
        #expect(value("mood").isNaN && value("mood_missing") == 1)
    }

    @Test("missing values take the user's training mean, or the spec's typical value when never logged")
    func imputation() {
        let day = { (offset: Int) in Self.start.adding(days: offset) }
        let logs = (0..<5).map { offset in
            DailyLog(
                user: Self.user, day: day(offset), symptomSeverity: offset % 3,
                hrv: offset == 2 ? nil : Sourced(Double(40 + offset), .health))
        }
        let design = Self.builder.designMatrix(logs: logs, today: day(5))
        let imputation = Self.builder.imputation(for: design)
        // HRV logged on feature days 0, 1, 3 among the rows (rows predict days 1…4 from days 0…3).
        #expect(abs(imputation[Self.column("hrv")] - (40 + 41 + 43) / 3.0) < 1e-12)
        #expect(imputation[Self.column("sleep_hours")] == 7)  // never logged: the spec's typical 7 hours
        #expect(imputation[Self.column("sleep_hours_dev28")] == 0)
        #expect(!design.imputed(with: imputation).hasMissingValues)
    }

    @Test("the features CSV reads back to the same matrix")
    func csvRoundTrip() throws {
        let today = Self.start.adding(days: 60)
        let design = try #require(ModelTrainer().trainingDesign(logs: Self.logs(), today: today))
        let text = design.csv()
        #expect(text.hasPrefix("day,severity,severity_lag1,"))
        #expect(text.split(separator: "\n").first!.hasSuffix(",weekday_sun,target"))
        let read = try DesignMatrix(csv: text)
        #expect(read.featureNames == design.featureNames)
        #expect(read.days == design.days)
        #expect(read.targets == design.targets)
        for i in 0..<design.rowCount { #expect(read.row(i) == design.row(i)) }
    }

    @Test("a malformed CSV names its line")
    func malformedCSV() {
        #expect(throws: LearningError.malformedCSV(line: 3, problem: "target is not a number")) {
            try DesignMatrix(csv: "a,b,target\n1,2,3\n1,2,x\n")
        }
    }

    /// Equal as feature rows: the same numbers, and missing in the same places.
    static func sameFeatures(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { ($0.isNaN && $1.isNaN) || $0 == $1 }
    }
}
