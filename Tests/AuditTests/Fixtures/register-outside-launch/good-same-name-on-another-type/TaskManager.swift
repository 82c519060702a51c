// swift-format-ignore-file
import BackgroundTasks

final class TaskManager {
    func registerBackgroundTasks() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in
            self.scheduleSync()
            task.expirationHandler = {}
            task.setTaskCompleted(success: true)
        }
    }

    func scheduleSync() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.sync"))
    }
}
