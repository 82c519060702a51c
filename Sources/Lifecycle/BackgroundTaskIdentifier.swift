/// What `AppLifecycle.beginBackgroundTask(name:expirationHandler:)` returns, to be passed back to
/// `endBackgroundTask(_:)`; `invalid` when the system refused the request, as
/// `UIBackgroundTaskIdentifier.invalid` is.
public struct BackgroundTaskIdentifier: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The request was refused: running in the background is not possible now.
    public static let invalid = BackgroundTaskIdentifier(rawValue: 0)

    public static func < (lhs: BackgroundTaskIdentifier, rhs: BackgroundTaskIdentifier) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String { self == .invalid ? "invalid" : "#\(rawValue)" }
}
