/// Where an iOS app is in its life, as UIKit's app states are seen from outside the process.
///
/// A process that does not exist — never launched, or killed — is `terminated`; UIKit calls that
/// "not running". The inactive state between active and background is left out: nothing the
/// simulator checks happens in it.
/// https://developer.apple.com/documentation/uikit/managing-your-app-s-life-cycle
public enum AppState: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// In the foreground, receiving events; no limit on running time.
    case active
    /// Running code off screen: only while a background task holds it there, or briefly after a
    /// background launch.
    case background
    /// In memory, running no code at all; the system may kill it at any time without notice.
    case suspended
    /// No process.
    case terminated

    public var description: String { rawValue }

    /// Whether the app's code runs in this state (work makes progress, callbacks are delivered).
    public var runsCode: Bool {
        self == .active || self == .background
    }
}
