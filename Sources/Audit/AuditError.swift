/// Why an audit could not run at all. A single unreadable or non-UTF-8 file found while walking a directory is
/// not an error: it is listed in the report's `skipped` files.
public enum AuditError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A path given to the audit does not exist.
    case pathNotFound(String)
    /// A path given to the audit exists but cannot be read (permissions, a special file).
    case unreadable(path: String, reason: String)
    /// No paths were given.
    case noPaths

    public var description: String {
        switch self {
        case .pathNotFound(let path):
            "\(path): no such file or directory; pass a Swift file or a directory of sources."
        case .unreadable(let path, let reason):
            "\(path): cannot be read (\(reason)); check its permissions or pass another path."
        case .noPaths:
            "no paths to audit; pass one or more Swift files or directories."
        }
    }
}
