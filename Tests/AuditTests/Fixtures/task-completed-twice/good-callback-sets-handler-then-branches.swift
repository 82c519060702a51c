// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The handler's work moved to a queue: the block sets the expiration handler itself, then completes the task in
/// each branch before it returns; the expiration handler cannot run before the block, nor after it has completed.
final class LogRotation {
    private let queue = DispatchQueue(label: "com.example.logs")

    func registerAtLaunch() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.logs", using: nil) { task in
            self.rotate(task)
        }
        schedule()
    }

    private func rotate(_ task: BGTask) {
        schedule()
        queue.async {
            task.expirationHandler = {
                task.setTaskCompleted(success: false)
            }
            if FileManager.default.fileExists(atPath: NSTemporaryDirectory() + "app.log") {
                try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "app.log")
                task.setTaskCompleted(success: true)
            } else {
                task.setTaskCompleted(success: false)
            }
        }
    }

    private func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.logs"))
    }
}
