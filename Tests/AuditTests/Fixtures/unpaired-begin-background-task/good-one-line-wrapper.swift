// swift-format-ignore-file
import UIKit

extension UIApplication {
    // Hands the identifier to the caller, which ends it.
    func beginSaving(expiration: @escaping () -> Void) -> UIBackgroundTaskIdentifier {
        self.beginBackgroundTask(withName: "save", expirationHandler: expiration)
    }
}

final class Saver {
    func save() {
        var identifier = UIBackgroundTaskIdentifier.invalid
        identifier = UIApplication.shared.beginSaving {
            UIApplication.shared.endBackgroundTask(identifier)
            identifier = .invalid
        }
        Store.write()
        if identifier != .invalid {
            UIApplication.shared.endBackgroundTask(identifier)
        }
    }
}
