// swift-format-ignore-file
import UIKit

/// Background time under the app's own name, so tests can stub it: `UIApplication` hands UIKit the caller's
/// handler and returns the identifier; its own `endBackgroundTask(_:)` meets the second requirement.
protocol BackgroundTimeSource: AnyObject {
    func requestTime(expirationHandler: (() -> Void)?) -> UIBackgroundTaskIdentifier
    func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier)
}

extension UIApplication: BackgroundTimeSource {
    func requestTime(expirationHandler: (() -> Void)?) -> UIBackgroundTaskIdentifier {
        beginBackgroundTask(expirationHandler: expirationHandler)
    }
}
