// swift-format-ignore-file
import UIKit

/// Background time behind a protocol, so tests can stub it: the implementation hands UIKit the caller's handler.
protocol BackgroundTimeProviding {
    func beginBackgroundTask(withName name: String?, expirationHandler handler: (() -> Void)?) -> UIBackgroundTaskIdentifier
    func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier)
}

final class BackgroundTimeProvider: BackgroundTimeProviding {
    let application: UIApplication

    init(application: UIApplication) {
        self.application = application
    }

    func beginBackgroundTask(withName name: String?, expirationHandler handler: (() -> Void)?) -> UIBackgroundTaskIdentifier {
        application.beginBackgroundTask(withName: name, expirationHandler: handler)
    }

    func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) {
        application.endBackgroundTask(identifier)
    }
}
