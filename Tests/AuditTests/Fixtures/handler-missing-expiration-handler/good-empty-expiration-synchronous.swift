// swift-format-ignore-file
import BackgroundTasks

// The task is completed (by the defer) before the handler returns; the empty expiration handler is never needed.
func pruneHistory(task: BGTask) {
    defer { task.setTaskCompleted(success: true) }
    task.expirationHandler = {}
    History.deleteEntries(olderThan: 30)
}

enum HistoryMaintenance {
    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.history", using: nil) { task in
            schedule()
            pruneHistory(task: task)
        }
    }

    static func applicationDidEnterBackground() { schedule() }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.history"))
    }
}
