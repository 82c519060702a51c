// swift-format-ignore-file
import UIKit

/// The expiration handler ends the task only in a block it sends to the keeper's queue, after it has returned.
final class SyncKeeper {
    private let source: BackgroundTimeSource
    private let queue = DispatchQueue(label: "sync-keeper")
    private var taskID: UIBackgroundTaskIdentifier = .invalid

    init(source: BackgroundTimeSource = UIApplication.shared) {
        self.source = source
    }

    func hold() {
        taskID = source.requestTime { // expect: unpaired-begin-background-task
            self.queue.async { self.release() }
        }
    }

    func release() {
        guard taskID != .invalid else { return }
        source.endBackgroundTask(taskID)
        taskID = .invalid
    }
}
