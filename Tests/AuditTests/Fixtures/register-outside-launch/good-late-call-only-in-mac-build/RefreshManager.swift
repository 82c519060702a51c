// swift-format-ignore-file
#if os(iOS)
import BackgroundTasks

enum RefreshManager {
    static let identifier = "com.example.tides.refresh"

    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            schedule()
            task.expirationHandler = { task.setTaskCompleted(success: false) }
            task.setTaskCompleted(success: true)
        }
        schedule()
    }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: identifier))
    }
}
#endif
