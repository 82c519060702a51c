// swift-format-ignore-file
import UIKit

/// The operation's expiration handler cancels the operation and ends the task, but the work ends it again without
/// looking whether it was cancelled: when time runs out the task is ended twice.
final class ArchiveOperation: Operation {
    var archive: (() -> Void)?

    override func main() {
        guard !isCancelled else { return }
        var taskID: UIBackgroundTaskIdentifier = .invalid
        taskID = UIApplication.shared.beginBackgroundTask { // expect: unpaired-begin-background-task
            self.cancel()
            UIApplication.shared.endBackgroundTask(taskID)
        }
        guard taskID != .invalid else { return }
        archive?()
        UIApplication.shared.endBackgroundTask(taskID)
    }
}
