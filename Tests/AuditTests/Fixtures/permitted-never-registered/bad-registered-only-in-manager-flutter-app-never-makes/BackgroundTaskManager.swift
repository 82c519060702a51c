// swift-format-ignore-file
import BackgroundTasks

/// Nothing makes this manager or calls its methods: the identifier it registers is never registered.
final class BackgroundTaskManager {
    static let shared = BackgroundTaskManager()
    private let identifier = "com.example.sync"

    private init() {}

    func registerBackgroundTasks() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            self.sync(task as! BGAppRefreshTask)
        }
    }

    func scheduleSync() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: identifier))
    }

    private func sync(_ task: BGAppRefreshTask) {
        scheduleSync()
        task.expirationHandler = { task.setTaskCompleted(success: false) }
        task.setTaskCompleted(success: true)
    }
}
