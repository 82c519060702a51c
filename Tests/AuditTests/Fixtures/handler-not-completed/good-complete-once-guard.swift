// swift-format-ignore-file
import BackgroundTasks

final class FeedRefresh {
    private var task: BGAppRefreshTask?
    private var completed = false

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.feed", using: nil) { task in
            self.run(task as! BGAppRefreshTask)
        }
    }

    func run(_ task: BGAppRefreshTask) {
        schedule()
        task.expirationHandler = { self.finish(task, success: false) }
        Feed.reload { ok in self.finish(task, success: ok) }
    }

    // Completes once: the expiration handler and the reload may both get here.
    private func finish(_ task: BGAppRefreshTask, success: Bool) {
        guard !completed else { return }
        completed = true
        task.setTaskCompleted(success: success)
    }

    func applicationDidEnterBackground(_ application: UIApplication) { schedule() }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.feed"))
    }
}
