/// Where a library writes its diagnostics. The library never configures logging; its caller
/// passes a sink (the CLI's writes to stderr). Messages never contain field values: health data is
/// personal.
public protocol LogSink: Sendable {
    func log(_ level: LogLevel, _ message: String)
}

public enum LogLevel: Int, Sendable, Comparable, CustomStringConvertible {
    case debug
    case info
    case warning
    case error

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }
}

/// Discards everything.
public struct SilentLog: LogSink {
    public init() {}
    public func log(_ level: LogLevel, _ message: String) {}
}
