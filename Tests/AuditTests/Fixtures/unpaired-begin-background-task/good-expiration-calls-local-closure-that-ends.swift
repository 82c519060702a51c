// swift-format-ignore-file
import UIKit

/// The cleanup thread ends its task through one local closure, under a lock, both from the expiration handler and
/// from the `defer` that runs however the cleanup leaves.
final class BundleCleaner {
    private var thread: Thread?

    func cleanUp() {
        thread = Thread {
            let lock = NSLock()
            var taskID = UIBackgroundTaskIdentifier.invalid
            let endCleanupTask = {
                lock.lock()
                defer { lock.unlock() }
                if taskID != .invalid {
                    UIApplication.shared.endBackgroundTask(taskID)
                    taskID = .invalid
                }
            }
            taskID = UIApplication.shared.beginBackgroundTask(withName: "BundleCleanup") {
                endCleanupTask()
            }
            defer { endCleanupTask() }
            BundleStore.shared.removeObsoleteBundles()
        }
        thread?.start()
    }
}
