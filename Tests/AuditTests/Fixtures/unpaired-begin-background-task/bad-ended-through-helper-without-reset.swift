// swift-format-ignore-file
import UIKit

/// The app's own endBackgroundTask ends the identifier it is given but keeps no record of it: when time runs out
/// the expiration handler ends the task, and the end of the work ends it again.
final class Uploads {
    private var taskID = UIBackgroundTaskIdentifier.invalid

    static func endBackgroundTask(_ task: UIBackgroundTaskIdentifier) {
        UIApplication.shared.endBackgroundTask(task)
    }

    func start() {
        taskID = UIApplication.shared.beginBackgroundTask(withName: "uploads") { // expect: unpaired-begin-background-task
            Uploads.endBackgroundTask(self.taskID)
        }
        Uploader.flush { _ in Uploads.endBackgroundTask(self.taskID) }
    }
}
