// swift-format-ignore-file
import UIKit

final class Uploader {
    func flushPending() {
        var taskID = UIBackgroundTaskIdentifier.invalid
        taskID = UIApplication.shared.beginBackgroundTask(withName: "flush") {
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }
        guard let batch = Queue.shared.nextBatch() else { return } // expect: unpaired-begin-background-task
        Network.send(batch) { _ in
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }
    }
}
