/// What a day's features are built from: its values, without who entered them or the notes.
///
/// A retrain's pooling pass reads every user's days for the population model and needs nothing else of them:
/// reading five columns fewer per day into this smaller value made that pass faster (docs/benchmarks.md).
public struct DayValues: Sendable, Hashable {
    public var day: Day
    public var symptomSeverity: Int?
    public var mood: Int?
    public var energy: Int?
    public var hrv: Double?
    public var restingHeartRate: Double?
    public var stepCount: Int?
    public var sleepDuration: Double?

    public init(day: Day) {
        self.day = day
    }

    /// The values of `log`.
    public init(_ log: DailyLog) {
        day = log.day
        symptomSeverity = log.symptomSeverity
        mood = log.mood
        energy = log.energy
        hrv = log.hrv?.value
        restingHeartRate = log.restingHeartRate?.value
        stepCount = log.stepCount?.value
        sleepDuration = log.sleepDuration?.value
    }
}

/// A day whose fields can be read as numbers: a `DailyLog`, or only its `DayValues`.
public protocol FieldValues {
    var day: Day { get }
    /// A field's value as a number, `nil` when empty.
    func value(of field: Field) -> Double?
}

extension DailyLog: FieldValues {}

extension DayValues: FieldValues {
    public func value(of field: Field) -> Double? {
        switch field {
        case .symptomSeverity: symptomSeverity.map(Double.init)
        case .mood: mood.map(Double.init)
        case .energy: energy.map(Double.init)
        case .hrv: hrv
        case .restingHeartRate: restingHeartRate
        case .stepCount: stepCount.map(Double.init)
        case .sleepDuration: sleepDuration
        }
    }
}

/// A day's values and who wrote each metric: what a retrain reads of every day it learns from. The features
/// take the values; the fingerprint of the logs a fit saw (`PipelineKit`'s `DesignFingerprint`) also takes the
/// sources. Without the notes and the user's id a `DailyLog` carries, a retrain's read of a user's days takes
/// two columns fewer a day and copies no string.
public struct SourcedDayValues: Sendable, Hashable {
    public var values: DayValues
    /// The metrics the person typed, one bit each (`bit(_:)`). A metric with a value and no bit came from Health;
    /// a bit never stands for an empty metric.
    private var typedMetrics: UInt8

    /// `values` with a source for each metric that has a value (`source(metric)`).
    public init(_ values: DayValues, source: (Field) -> Source) {
        self.values = values
        typedMetrics = 0
        for field in Field.metrics where values.value(of: field) != nil && source(field) == .user {
            typedMetrics |= Self.bit(field)
        }
    }

    /// The values and sources of `log`.
    public init(_ log: DailyLog) {
        self.init(DayValues(log)) { log.source(of: $0) ?? .health }
    }

    /// Who wrote a metric field; `nil` when empty or for a user-only field, as `DailyLog.source(of:)`.
    public func source(of field: Field) -> Source? {
        let bit = Self.bit(field)
        guard bit != 0, values.value(of: field) != nil else { return nil }
        return typedMetrics & bit != 0 ? .user : .health
    }

    /// A metric's bit in `typedMetrics`; 0 for a user-only field.
    private static func bit(_ field: Field) -> UInt8 {
        switch field {
        case .hrv: 1
        case .restingHeartRate: 2
        case .stepCount: 4
        case .sleepDuration: 8
        case .symptomSeverity, .mood, .energy: 0
        }
    }
}

/// A day whose fields can be read with who wrote each: a `DailyLog`, or its `SourcedDayValues`.
public protocol SourcedFieldValues: FieldValues {
    /// Who wrote a metric field; `nil` when empty or for a user-only field.
    func source(of field: Field) -> Source?
}

extension DailyLog: SourcedFieldValues {}

extension SourcedDayValues: SourcedFieldValues {
    public var day: Day { values.day }

    public func value(of field: Field) -> Double? { values.value(of: field) }
}
