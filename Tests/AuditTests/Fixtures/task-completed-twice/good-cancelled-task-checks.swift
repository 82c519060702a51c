// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The `Task` tests whether it was cancelled before completing, so the expiration handler's completion is the only
/// one; the second handler's expiration handler only cancels, and the `Task` completes the task once.
final class PhotoBackup: NSObject, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.backup", using: nil) { task in
            self.runBackup(task as! BGProcessingTask)
        }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.thumbnails", using: nil) { task in
            self.makeThumbnails(task as! BGProcessingTask)
        }
        schedule()
        return true
    }

    func runBackup(_ task: BGProcessingTask) {
        schedule()
        let work = Task {
            let uploaded = await Uploader.shared.upload()
            guard !Task.isCancelled else { return }
            task.setTaskCompleted(success: uploaded)
        }
        task.expirationHandler = {
            work.cancel()
            task.setTaskCompleted(success: false)
        }
    }

    func makeThumbnails(_ task: BGProcessingTask) {
        schedule()
        let work = Task {
            let made = await Uploader.shared.upload()
            task.setTaskCompleted(success: made)
        }
        task.expirationHandler = {
            work.cancel()
        }
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.backup"))
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.thumbnails"))
    }
}

actor Uploader {
    static let shared = Uploader()
    func upload() async -> Bool { true }
}
