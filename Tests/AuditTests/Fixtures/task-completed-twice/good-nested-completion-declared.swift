// swift-format-ignore-file
import BackgroundTasks
import Foundation

/// The nested function that completes the task is declared before it is used: its declaration runs nothing, so
/// the one call on each path is the only completion.
enum UsageUpload {
    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.usage", using: nil) { task in
            schedule()
            let start = Date()
            func setTaskCompleted(success: Bool) {
                Metrics.record(duration: Date().timeIntervalSince(start))
                task.setTaskCompleted(success: success)
            }
            task.expirationHandler = { Usage.cancelUpload() }
            Usage.upload { setTaskCompleted(success: $0) }
        }
    }

    static func sceneDidEnterBackground() { schedule() }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.usage"))
    }
}
