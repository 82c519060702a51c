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
        task.expirationHandler = { Uploader.cancel() }
        if Uploader.pending.isEmpty {
            task.setTaskCompleted(success: true)
        } else {
            task.setTaskCompleted(success: Uploader.flush())
        }
        // Left over from before the branches were added.
        task.setTaskCompleted(success: true) // expect: task-completed-twice
    }

    func applicationDidEnterBackground(_ application: UIApplication) { schedule() }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.sync"))
    }
}
