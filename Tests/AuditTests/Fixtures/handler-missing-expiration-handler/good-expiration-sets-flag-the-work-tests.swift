// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The expiration handler sets a flag the upload loop tests before each item: the loop stops at the next item, and
/// the task is completed then.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.upload", using: nil) { task in
            self.upload(task: task as! BGProcessingTask)
        }
        scheduleUpload()
        return true
    }

    func scheduleUpload() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.upload"))
    }

    private func upload(task: BGProcessingTask) {
        scheduleUpload()
        var expired = false
        task.expirationHandler = {
            expired = true
        }
        for item in Outbox.shared.items() {
            if expired { break }
            Outbox.shared.send(item)
        }
        task.setTaskCompleted(success: !expired)
    }
}

final class Outbox {
    static let shared = Outbox()
    func items() -> [Data] { [] }
    func send(_ item: Data) {}
}
