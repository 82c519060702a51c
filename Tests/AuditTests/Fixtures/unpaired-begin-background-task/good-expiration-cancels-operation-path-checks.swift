// swift-format-ignore-file
import UIKit

/// The operation's expiration handler cancels the operation before ending the task; the work ends the task only when
/// the operation was not cancelled, so exactly one of them ends it.
final class ArchiveOperation: Operation {
    var archive: (() -> Void)?

    override func main() {
        guard !isCancelled else { return }
        var taskID: UIBackgroundTaskIdentifier = .invalid
        taskID = UIApplication.shared.beginBackgroundTask {
            self.cancel()
            UIApplication.shared.endBackgroundTask(taskID)
        }
        guard taskID != .invalid else { return }
        archive?()
        guard !self.isCancelled else { return }
        UIApplication.shared.endBackgroundTask(taskID)
    }
}
