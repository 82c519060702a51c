// swift-format-ignore-file
import UIKit

final class Uploader {
    func flushPending() {
        var taskID = UIBackgroundTaskIdentifier.invalid
        taskID = UIApplication.shared.beginBackgroundTask(withName: "flush") {
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }
        guard let batch = Queue.shared.nextBatch() else {
            UIApplication.shared.endBackgroundTask(taskID)
            return
        }
        DispatchQueue.global().async {
            Network.sendSynchronously(batch)
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }
    }
}
