public import Domain

/// What a record of an export is used for.
public enum AppleHealthMeasure: String, Sendable, Hashable, CaseIterable, Comparable {
    case hrv
    case restingHeartRate
    case stepCount
    case sleepDuration
    /// Reported per day beside the DailyLog, never stored in it.
    case timeInBed

    /// The DailyLog field the measure fills; `nil` for time in bed.
    public var field: Field? {
        switch self {
        case .hrv: .hrv
        case .restingHeartRate: .restingHeartRate
        case .stepCount: .stepCount
        case .sleepDuration: .sleepDuration
        case .timeInBed: nil
        }
    }

    public static func < (lhs: AppleHealthMeasure, rhs: AppleHealthMeasure) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Why a record of an export was not used.
public enum AppleHealthSkipReason: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// A type that fills no DailyLog field (heart rate, energy, body mass …); by type in
    /// `AppleHealthSummary.typesNotImported`.
    case typeNotImported
    /// The record has no `type` attribute.
    case missingType
    /// A start or end date is missing or in neither export shape.
    case unparsableDate
    /// The end is before the start, or the record spans more than 31 days.
    case invalidInterval
    /// The value is missing, not a number, or (sleep) not a sleep analysis value.
    case unparsableValue(AppleHealthMeasure)
    /// The unit is missing or cannot be converted to the field's unit.
    case unknownUnit(AppleHealthMeasure)
    /// One record's value is outside the field's bounds (DESIGN §2): a negative step count, an HRV
    /// of 0 ms, a sleep interval longer than a day.
    case outOfBounds(AppleHealthMeasure)
    /// A sleep record saying the person was awake: recognised, not sleep.
    case awake

    public var description: String {
        switch self {
        case .typeNotImported: "type not imported"
        case .missingType: "no type"
        case .unparsableDate: "date not understood"
        case .invalidInterval: "end before start, or longer than 31 days"
        case .unparsableValue(let measure): "\(measure.rawValue): value not understood"
        case .unknownUnit(let measure): "\(measure.rawValue): unit not understood"
        case .outOfBounds(let measure): "\(measure.rawValue): value out of bounds"
        case .awake: "sleep: awake, not asleep"
        }
    }

    public static func < (lhs: AppleHealthSkipReason, rhs: AppleHealthSkipReason) -> Bool {
        lhs.description < rhs.description
    }
}

/// What an import read, used and skipped. Counts only: it never holds a health value, so it is safe
/// to print and log.
public struct AppleHealthSummary: Sendable, Hashable, CustomStringConvertible {
    /// Bytes of export.xml read (uncompressed, for a zip).
    public var bytesRead: Int64 = 0
    /// `Record` elements directly under `HealthData` (the copies nested in a `Correlation` are not
    /// counted). Always `recordsUsed` plus `recordsSkipped`, summed over their keys.
    public var recordsRead = 0
    public var recordsUsed: [AppleHealthMeasure: Int] = [:]
    /// How many of the used records a person typed (`HKWasUserEntered`).
    public var recordsEnteredByPerson = 0
    public var recordsSkipped: [AppleHealthSkipReason: Int] = [:]
    /// The records counted as `.typeNotImported`, by type identifier (as the export spells it: the
    /// description escapes it).
    public var typesNotImported: [String: Int] = [:]
    /// Days with at least one value to store (health or entered by the person).
    public var days = 0
    public var firstDay: Day?
    public var lastDay: Day?
    /// Days whose aggregated value fell outside the field's bounds: the value was dropped, the day's
    /// other values kept.
    public var dayValuesOutOfBounds: [Field: Int] = [:]

    public init() {}

    public var recordsSkippedTotal: Int { recordsSkipped.values.reduce(0, +) }
    public var recordsUsedTotal: Int { recordsUsed.values.reduce(0, +) }

    public var description: String {
        var lines: [String] = []
        let size =
            bytesRead < 100_000 ? "\(bytesRead) bytes" : "\((Double(bytesRead) / 1_000_000 * 10).rounded() / 10) MB"
        var span = ""
        if let firstDay, let lastDay { span = firstDay == lastDay ? " (\(firstDay))" : " (\(firstDay) to \(lastDay))" }
        lines.append("Apple Health export: \(size), \(recordsRead) records read, \(days) days\(span)")
        let used = recordsUsed.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key.rawValue)" }
        lines.append(
            "records used: \(recordsUsedTotal)" + (used.isEmpty ? "" : " (\(used.joined(separator: ", ")))")
                + (recordsEnteredByPerson > 0 ? ", \(recordsEnteredByPerson) of them entered by a person" : ""))
        lines.append("records skipped: \(recordsSkippedTotal)")
        for (reason, count) in recordsSkipped.sorted(by: { $0.key < $1.key }) {
            var line = "  \(count) \(reason)"
            if reason == .typeNotImported {
                let types = typesNotImported.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
                line +=
                    ": " + types.prefix(5).map { "\($0.value) \(PrintableExcerpt.of($0.key))" }.joined(separator: ", ")
                if types.count > 5 { line += " and \(types.count - 5) more types" }
            }
            lines.append(line)
        }
        if !dayValuesOutOfBounds.isEmpty {
            let fields = dayValuesOutOfBounds.sorted { $0.key.rawValue < $1.key.rawValue }
            lines.append(
                "day values out of bounds, not stored: "
                    + fields.map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }
}
