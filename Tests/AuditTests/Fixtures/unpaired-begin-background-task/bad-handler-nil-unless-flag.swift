// swift-format-ignore-file
import UIKit

/// The expiration handler is chosen by a flag: without it the task is begun with none.
final class ExportObserver {
    let cancelOnExpiry: Bool
    var taskID: UIBackgroundTaskIdentifier = .invalid
    let export = Export()

    init(cancelOnExpiry: Bool) {
        self.cancelOnExpiry = cancelOnExpiry
    }

    func exportStarted() {
        let expire = cancelOnExpiry ? { self.export.cancel(); self.exportFinished() } : nil
        taskID = UIApplication.shared.beginBackgroundTask(withName: "export", expirationHandler: expire) // expect: unpaired-begin-background-task
    }

    func exportFinished() {
        guard taskID != .invalid else { return }
        UIApplication.shared.endBackgroundTask(taskID)
        taskID = .invalid
    }
}
