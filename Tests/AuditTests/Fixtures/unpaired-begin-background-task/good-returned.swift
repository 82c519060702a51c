// swift-format-ignore-file
import UIKit

enum BackgroundWindow {
    private static var open: Set<UIBackgroundTaskIdentifier> = []

    /// Begins a window the caller ends with `finish(_:)`; whichever of the caller and the expiration handler comes
    /// first ends it.
    static func begin(_ name: String) -> UIBackgroundTaskIdentifier {
        var identifier = UIBackgroundTaskIdentifier.invalid
        identifier = UIApplication.shared.beginBackgroundTask(withName: name) {
            finish(identifier)
        }
        open.insert(identifier)
        return identifier
    }

    static func finish(_ identifier: UIBackgroundTaskIdentifier) {
        guard open.remove(identifier) != nil else { return }
        UIApplication.shared.endBackgroundTask(identifier)
    }

    static func wrapping(_ name: String, work: () -> Void) {
        let window = begin(name)
        work()
        finish(window)
    }
}
