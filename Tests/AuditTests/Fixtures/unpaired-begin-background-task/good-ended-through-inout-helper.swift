// swift-format-ignore-file
import UIKit

/// The app's own endBackgroundTask takes the identifier inout and sets it to .invalid after ending it, so the
/// expiration handler and the end of the work cannot both end the same task.
final class Uploads {
    private var taskID = UIBackgroundTaskIdentifier.invalid

    static func endBackgroundTask(_ task: inout UIBackgroundTaskIdentifier) {
        guard task != .invalid else { return }
        UIApplication.shared.endBackgroundTask(task)
        task = .invalid
    }

    func start() {
        taskID = UIApplication.shared.beginBackgroundTask(withName: "uploads") {
            Uploads.endBackgroundTask(&self.taskID)
        }
        Uploader.flush { _ in Uploads.endBackgroundTask(&self.taskID) }
    }
}
