// swift-format-ignore-file
import BackgroundTasks

final class Refresher {
    private var completed = false

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            self.schedule()
            task.expirationHandler = { Feed.cancel() }
            Feed.reload { ok in
                task.setTaskCompleted(success: ok)
                self.completed = true
            }
            if !self.completed {
                task.setTaskCompleted(success: false)
            }
        }
    }

    func applicationDidEnterBackground(_ application: UIApplication) { schedule() }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
    }
}
