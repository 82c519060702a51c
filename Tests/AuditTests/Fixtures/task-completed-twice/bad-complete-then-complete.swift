// swift-format-ignore-file
import BackgroundTasks

enum Refresh {
    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            schedule()
            task.expirationHandler = { Feed.cancel() }
            let ok = Feed.reloadNow()
            task.setTaskCompleted(success: ok)
            Feed.compact()
            task.setTaskCompleted(success: true) // expect: task-completed-twice
        }
    }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
    }

    static func scheduleOnBackground() { schedule() }
}
