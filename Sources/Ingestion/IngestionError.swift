import Domain

/// A field of one input record that cannot be stored, and why. Messages never repeat the value:
/// it may be health data.
public struct FieldError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field's name as the input spells it (`symptomSeverity`, `payload.day`), or `json` for a
    /// line that is not valid JSON.
    public var field: String
    public var problem: String

    public init(_ field: String, _ problem: String) {
        self.field = field
        self.problem = problem
    }

    /// The field name is printed as a `PrintableExcerpt`: it comes from input.
    public var description: String { "\(PrintableExcerpt.of(field)): \(problem)" }

    /// The error for a key that no field has. The key is named only when it looks like a field
    /// name (`symptom_severity`); any other key is named by its position, because a key such as
    /// `"hrv 48.2"` may hold a value, and a message never repeats one.
    static func unknownKey(_ key: String, position: Int, prefix: String = "", _ problem: String) -> FieldError {
        FieldError(isFieldName(key) ? prefix + key : "\(prefix)key \(position)", problem)
    }

    /// Whether `key` looks like a field name (`JSONParser.isFieldName`).
    static func isFieldName(_ key: String) -> Bool { JSONParser.isFieldName(key) }
}

/// Input that cannot be read or stored.
public enum IngestionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Line `line` (1-based) of a JSON Lines input was rejected; the lines around it are unaffected.
    case rejectedLine(line: Int, FieldError)
    /// The input could not be opened or read.
    case cannotRead(path: String, reason: String)

    public var description: String {
        switch self {
        case .rejectedLine(let line, let error): "line \(line): \(error)"
        case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
        }
    }
}
