// swift-format-ignore-file
import UIKit

/// Tasks begun from any thread: the begin runs on the main queue, synchronously, and the identifier is kept by key
/// for the caller to end.
final class TaskKeeper {
    private var tasks: [Int: UIBackgroundTaskIdentifier] = [:]
    private var next = 0
    private let lock = NSLock()

    func begin() -> Int {
        lock.lock()
        let key = next
        next += 1
        lock.unlock()
        var taskID = UIBackgroundTaskIdentifier.invalid
        DispatchQueue.main.sync {
            taskID = UIApplication.shared.beginBackgroundTask {
                self.end(key)
            }
        }
        lock.lock()
        tasks[key] = taskID
        lock.unlock()
        return key
    }

    func end(_ key: Int) {
        lock.lock()
        let taskID = tasks.removeValue(forKey: key)
        lock.unlock()
        guard let taskID, taskID != .invalid else { return }
        UIApplication.shared.endBackgroundTask(taskID)
    }
}
