// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The expiration handler completes the task and cancels the `Task`; cancelling only asks it to stop, so once
/// `upload()` returns, the `Task` completes the task a second time.
final class PhotoBackup: NSObject, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.backup", using: nil) { task in
            self.runBackup(task as! BGProcessingTask)
        }
        schedule()
        return true
    }

    func runBackup(_ task: BGProcessingTask) {
        schedule()
        let work = Task.detached {
            let uploaded = await Uploader.shared.upload()
            task.setTaskCompleted(success: uploaded) // expect: task-completed-twice
        }
        task.expirationHandler = {
            work.cancel()
            task.setTaskCompleted(success: false)
        }
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.backup"))
    }
}

actor Uploader {
    static let shared = Uploader()
    func upload() async -> Bool { true }
}
