// swift-format-ignore-file
import BackgroundTasks

final class Refresher {
    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            self.scheduleRefresh()
            task.expirationHandler = {}
            task.setTaskCompleted(success: true)
        }
    }

    func scheduleRefresh() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
    }
}
