// swift-format-ignore-file
import UIKit

protocol PlatformServices {
    func beginBackgroundTask(name: String?, expirationHandler: (() -> Void)?) -> Int
    func endBackgroundTask(_ id: Int)
}

/// A platform layer's wrapper hands the identifier back as a number for its caller to end; nothing calls it, so no
/// caller ends the task a second time after the expiration handler has.
final class IOSPlatformServices: PlatformServices {
    func beginBackgroundTask(name: String?, expirationHandler: (() -> Void)?) -> Int {
        var identifier: UIBackgroundTaskIdentifier = .invalid
        identifier = UIApplication.shared.beginBackgroundTask(withName: name) {
            expirationHandler?()
            UIApplication.shared.endBackgroundTask(identifier)
        }
        return identifier.rawValue
    }

    func endBackgroundTask(_ id: Int) {
        let identifier = UIBackgroundTaskIdentifier(rawValue: id)
        if identifier != .invalid {
            UIApplication.shared.endBackgroundTask(identifier)
        }
    }
}
