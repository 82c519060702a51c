// swift-format-ignore-file
import BackgroundTasks
import Foundation

/// Each pending photo is queued with the task; one without data is skipped by the `return` of the `forEach`
/// closure, which leaves only that closure. The task is completed when the queue empties.
enum PhotoUploadTask {
    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.photos", using: nil) { task in
            schedule()
            let queue = UploadQueue.shared
            task.expirationHandler = { queue.cancelAll() }
            PhotoLibrary.pending().forEach { photo in
                guard let data = photo.data else { return }
                queue.add(data, on: task)
            }
            queue.whenEmpty { task.setTaskCompleted(success: true) }
        }
    }

    static func sceneDidEnterBackground() { schedule() }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.photos"))
    }
}
