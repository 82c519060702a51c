// swift-format-ignore-file
import BackgroundTasks

final class SyncService {
    static let shared = SyncService()

    func registerAll() {
        // Spelled out instead of using the constant, and already registered by the app delegate.
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in // expect: duplicate-registration
            Refresh.run(task)
        }
    }
}
