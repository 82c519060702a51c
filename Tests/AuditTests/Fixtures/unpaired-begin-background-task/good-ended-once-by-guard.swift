// swift-format-ignore-file
import UIKit

/// The expiration handler and the work both call endIfNeeded; a guard on a flag set right after it lets only the
/// first one end the task, and the other returns with nothing left to end.
final class SyncRunner {
    private let lock = NSLock()
    private var isEnding = false

    func run(_ work: @escaping () -> Void) {
        var taskID = UIBackgroundTaskIdentifier.invalid

        func endIfNeeded() {
            lock.lock()
            defer { lock.unlock() }
            if self.isEnding {
                return
            }
            self.isEnding = true
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }

        let start = {
            taskID = UIApplication.shared.beginBackgroundTask(withName: "sync") { endIfNeeded() }
            work()
            endIfNeeded()
        }
        start()
    }
}
