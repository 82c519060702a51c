/// A value that breaks a rule of the domain (DESIGN §2).
public enum DomainError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `field` holds a value the domain does not allow; `problem` says what is allowed.
    case invalidValue(field: String, problem: String)

    public var description: String {
        switch self {
        case .invalidValue(let field, let problem): "\(field): \(problem)"
        }
    }
}
