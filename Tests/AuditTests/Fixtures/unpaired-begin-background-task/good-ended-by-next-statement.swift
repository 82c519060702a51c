// swift-format-ignore-file
import UIKit

extension UIApplication {
    /// Asks for background time with the caller's expiration handler, or an empty one, and gives it back at once:
    /// nothing runs between the begin and the end, so the empty handler, which UIKit calls only when time runs out,
    /// never runs.
    func pingBackgroundTime(expirationHandler: (() -> Void)? = nil) {
        let taskID: UIBackgroundTaskIdentifier
        if let expirationHandler = expirationHandler {
            taskID = self.beginBackgroundTask(expirationHandler: expirationHandler)
        } else {
            taskID = self.beginBackgroundTask(expirationHandler: { })
        }
        self.endBackgroundTask(taskID)
    }
}
