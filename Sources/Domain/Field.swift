/// Who wrote a metric value. A `user` value always wins over a `health` one (DESIGN §2).
public enum Source: String, Sendable, Hashable, CaseIterable {
    case user
    case health
}

/// The numeric fields of a `DailyLog`, with their units and hard bounds (DESIGN §2).
public enum Field: String, Sendable, Hashable, CaseIterable {
    case symptomSeverity
    case mood
    case energy
    case hrv
    case restingHeartRate
    case stepCount
    case sleepDuration

    /// The fields that a health sync may write; each carries a `Source`.
    public static let metrics: [Field] = [.hrv, .restingHeartRate, .stepCount, .sleepDuration]

    /// The fields only a person writes.
    public static let userOnly: [Field] = [.symptomSeverity, .mood, .energy]

    /// Values outside these bounds are rejected, never clamped.
    public var bounds: ClosedRange<Double> {
        switch self {
        case .symptomSeverity: 0...10
        case .mood, .energy: 1...5
        case .hrv: 1...300
        case .restingHeartRate: 20...250
        case .stepCount: 0...200_000
        case .sleepDuration: 0...86_400
        }
    }

    /// Whether a value must be a whole number.
    public var isInteger: Bool {
        switch self {
        case .symptomSeverity, .mood, .energy, .stepCount: true
        case .hrv, .restingHeartRate, .sleepDuration: false
        }
    }

    public var isMetric: Bool { Field.metrics.contains(self) }

    /// Unit for messages and documentation.
    public var unit: String {
        switch self {
        case .symptomSeverity: "0–10"
        case .mood, .energy: "1–5"
        case .hrv: "ms"
        case .restingHeartRate: "beats/min"
        case .stepCount: "steps"
        case .sleepDuration: "seconds"
        }
    }

    /// Checks `value` against the field's bounds and integrality.
    public func validate(_ value: Double) throws(DomainError) {
        guard value.isFinite else { throw .invalidValue(field: rawValue, problem: "must be a finite number") }
        if isInteger, value.rounded() != value {
            throw .invalidValue(field: rawValue, problem: "must be a whole number")
        }
        guard bounds.contains(value) else {
            throw .invalidValue(
                field: rawValue,
                problem: "must be between \(Field.format(bounds.lowerBound)) and \(Field.format(bounds.upperBound))")
        }
    }

    static func format(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }

    /// Longest accepted `notes` text, in Unicode scalars (what SQLite's `length()` counts).
    public static let notesLimit = 2_000

    /// What is wrong with `text` as a stored text (notes, a watch item's kind), or `nil`: a NUL character
    /// (U+0000), which PostgreSQL's `text` cannot hold, is refused on every backend, so that what one
    /// stores the other can.
    public static func textProblem(_ text: String) -> String? {
        text.utf8.contains(0) ? "holds a NUL character (\\u0000), which the database cannot store" : nil
    }

    /// What is wrong with `text` as `notes`, or `nil`.
    public static func notesProblem(_ text: String) -> String? {
        if text.unicodeScalars.count > notesLimit { return "must be at most \(notesLimit) characters" }
        return textProblem(text)
    }
}

/// A value with the source that wrote it.
public struct Sourced<Value: Sendable & Hashable>: Sendable, Hashable {
    public var value: Value
    public var source: Source

    public init(_ value: Value, _ source: Source) {
        self.value = value
        self.source = source
    }
}
