// swift-format-ignore-file
import BackgroundTasks

final class Sync {
    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in
            self.handle(task)
        }
    }

    func handle(_ task: BGTask) {
        schedule()
        task.expirationHandler = {
            Uploader.cancel()
            task.setTaskCompleted(success: false)
        }
        guard !Uploader.pending.isEmpty else {
            task.setTaskCompleted(success: true)
            return
        }
        task.setTaskCompleted(success: Uploader.flush())
    }

    func applicationDidEnterBackground(_ application: UIApplication) { schedule() }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.sync"))
    }
}
