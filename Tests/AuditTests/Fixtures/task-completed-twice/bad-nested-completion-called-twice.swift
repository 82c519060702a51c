// swift-format-ignore-file
import BackgroundTasks
import Foundation

/// The nested function completes the task; the handler calls it after the cleanup and again after the upload, on
/// the same path.
enum UsageUpload {
    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.usage", using: nil) { task in
            schedule()
            let start = Date()
            func finish(success: Bool) {
                Metrics.record(duration: Date().timeIntervalSince(start))
                task.setTaskCompleted(success: success)
            }
            task.expirationHandler = { Usage.cancelUpload() }
            let cleaned = Usage.deleteOldEvents()
            finish(success: cleaned)
            let uploaded = Usage.uploadPending()
            finish(success: uploaded) // expect: task-completed-twice
        }
    }

    static func sceneDidEnterBackground() { schedule() }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.usage"))
    }
}
