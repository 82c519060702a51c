// swift-format-ignore-file
import BackgroundTasks

final class SyncManager {
    static let shared = SyncManager()
    static let identifier = "com.example.sync"

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.identifier, using: nil) { task in // expect: duplicate-registration
            self.schedule()
            task.expirationHandler = { Sync.cancel() }
            Sync.run { task.setTaskCompleted(success: $0) }
        }
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: Self.identifier))
    }
}
