// swift-format-ignore-file
import UIKit

/// When time runs out, the handler cancels the work, ends the task that expired (marking it ended, so the work does
/// not end it again), and starts the whole thing again with a task of its own.
final class Syncer {
    private var work: DispatchWorkItem?

    func keepSyncing() {
        var taskID = UIBackgroundTaskIdentifier.invalid
        taskID = UIApplication.shared.beginBackgroundTask(expirationHandler: {
            self.work?.cancel()
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
            self.keepSyncing()
        })
        let item = DispatchWorkItem {
            Store.sync()
            guard taskID != .invalid else { return }
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }
        work = item
        DispatchQueue.global().async(execute: item)
    }
}

enum Store {
    static func sync() {}
}
