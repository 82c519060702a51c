// swift-format-ignore-file
import UIKit

final class ReceiptUploader {
    func uploadPending() {
        var taskID = UIBackgroundTaskIdentifier.invalid
        taskID = UIApplication.shared.beginBackgroundTask(withName: "receipts") {
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }
        Receipts.upload { _ in
            guard taskID != .invalid else { return }
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }
    }
}
