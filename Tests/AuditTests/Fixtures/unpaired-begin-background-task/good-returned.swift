// swift-format-ignore-file
import UIKit

enum BackgroundWindow {
    /// Begins a window the caller ends with `finish(_:)`.
    static func begin(_ name: String) -> UIBackgroundTaskIdentifier {
        var identifier = UIBackgroundTaskIdentifier.invalid
        identifier = UIApplication.shared.beginBackgroundTask(withName: name) {
            UIApplication.shared.endBackgroundTask(identifier)
        }
        return identifier
    }

    static func finish(_ identifier: UIBackgroundTaskIdentifier) {
        UIApplication.shared.endBackgroundTask(identifier)
    }

    static func wrapping(_ name: String, work: () -> Void) {
        let window = begin(name)
        work()
        finish(window)
    }
}
