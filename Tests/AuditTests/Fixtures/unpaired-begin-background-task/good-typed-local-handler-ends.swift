// swift-format-ignore-file
import UIKit

/// The typed local expiration handler ends the task before it returns, once.
final class CacheCleaner {
    var taskID = UIBackgroundTaskIdentifier.invalid

    func cleanInBackground() {
        let endTask: () -> Void = {
            guard self.taskID != .invalid else { return }
            UIApplication.shared.endBackgroundTask(self.taskID)
            self.taskID = .invalid
        }
        taskID = UIApplication.shared.beginBackgroundTask(withName: "clean", expirationHandler: endTask)
        DiskCache.shared.removeExpired {
            DispatchQueue.main.async(execute: endTask)
        }
    }
}
