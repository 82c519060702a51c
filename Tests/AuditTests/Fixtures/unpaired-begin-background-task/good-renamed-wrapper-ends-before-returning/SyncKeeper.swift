// swift-format-ignore-file
import UIKit

/// The expiration handler ends the task before it returns; the queue only records that time ran out.
final class SyncKeeper {
    private let source: BackgroundTimeSource
    private let queue = DispatchQueue(label: "sync-keeper")
    private var taskID: UIBackgroundTaskIdentifier = .invalid
    private var expired = false

    init(source: BackgroundTimeSource = UIApplication.shared) {
        self.source = source
    }

    func hold() {
        taskID = source.requestTime {
            self.release()
            self.queue.async { self.expired = true }
        }
    }

    func release() {
        guard taskID != .invalid else { return }
        source.endBackgroundTask(taskID)
        taskID = .invalid
    }
}
