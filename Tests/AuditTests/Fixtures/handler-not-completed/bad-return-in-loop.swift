// swift-format-ignore-file
import BackgroundTasks
import Foundation

/// The same upload written as a `for` loop: here the `return` leaves the launch handler, and the first photo
/// without data leaves the task without completing it.
enum PhotoUploadTask {
    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.photos", using: nil) { task in
            schedule()
            let queue = UploadQueue.shared
            task.expirationHandler = { queue.cancelAll() }
            for photo in PhotoLibrary.pending() {
                guard let data = photo.data else { return } // expect: handler-not-completed
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
