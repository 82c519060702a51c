// swift-format-ignore-file
import UIKit

final class ReceiptUploader {
    func uploadPending() {
        var taskID = UIBackgroundTaskIdentifier.invalid
        // When time runs out the handler ends the task; the upload's completion then ends it again.
        taskID = UIApplication.shared.beginBackgroundTask(withName: "receipts") { // expect: unpaired-begin-background-task
            print("receipts upload expired")
            UIApplication.shared.endBackgroundTask(taskID)
        }
        Receipts.upload { _ in
            UIApplication.shared.endBackgroundTask(taskID)
        }
    }
}
