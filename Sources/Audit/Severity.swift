/// How urgently a finding needs fixing, from `critical` (the app is killed or the feature never works) to `low`
/// (dead configuration). Ordered so that `critical > high > medium > low`.
public enum Severity: String, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    case critical
    case high
    case medium
    case low

    /// 3 for `critical` down to 0 for `low`.
    public var rank: Int {
        switch self {
        case .critical: 3
        case .high: 2
        case .medium: 1
        case .low: 0
        }
    }

    public var description: String { rawValue }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }

    /// Reads `critical`, `high`, `medium` or `low` as given to `--fail-on`, ignoring case.
    public init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }
}
