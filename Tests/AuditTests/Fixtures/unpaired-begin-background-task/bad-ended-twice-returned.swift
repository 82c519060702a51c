// swift-format-ignore-file
import UIKit

/// Hands the identifier to its caller, who ends it when the work is done; the expiration handler ends it too.
struct LongRunningWork {
    private let application = UIApplication.shared

    func begin() -> UIBackgroundTaskIdentifier {
        var identifier = UIBackgroundTaskIdentifier.invalid
        identifier = application.beginBackgroundTask { // expect: unpaired-begin-background-task
            self.finish(identifier)
        }
        return identifier
    }

    func finish(_ identifier: UIBackgroundTaskIdentifier) {
        application.endBackgroundTask(identifier)
    }
}
