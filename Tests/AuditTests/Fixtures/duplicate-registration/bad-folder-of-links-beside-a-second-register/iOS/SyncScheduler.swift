// swift-format-ignore-file
import BackgroundTasks

/// The macOS folder links to this file; the app delegate registers the same identifier a second time.
enum SyncScheduler {
    static let identifier = "com.example.sync"

    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in // expect: duplicate-registration
            schedule()
            task.expirationHandler = { SyncEngine.shared.stop() }
            SyncEngine.shared.run { task.setTaskCompleted(success: $0) }
        }
    }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: identifier))
    }
}
