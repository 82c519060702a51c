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

    public var description: String { "\(field): \(problem)" }
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
