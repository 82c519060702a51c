// swift-format-ignore-file
import UIKit

/// The expiration handler, a typed local closure, ends the task only in a `Task`, which runs after it returns.
final class CacheCleaner {
    func cleanInBackground() {
        var taskID = UIBackgroundTaskIdentifier.invalid
        let endTask: @Sendable () -> Void = {
            Task { @MainActor in
                UIApplication.shared.endBackgroundTask(taskID)
            }
        }
        taskID = UIApplication.shared.beginBackgroundTask(withName: "clean", expirationHandler: endTask) // expect: unpaired-begin-background-task
        DiskCache.shared.removeExpired {
            endTask()
        }
    }
}
