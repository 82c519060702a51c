// swift-format-ignore-file
import BackgroundTasks

// Left in the app's folder but in no target, and nothing reads `shared`: its `public` reaches no other module, so
// nothing makes the manager and its handler never runs.
public final class SyncManager {
    public static let shared = SyncManager()
    @Published public var lastSync: Date?

    private init() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in
            self.handleSync(task as! BGAppRefreshTask)
        }
    }

    public func scheduleSync() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.sync"))
    }

    private func handleSync(_ task: BGAppRefreshTask) {
        scheduleSync()
        Task {
            await Server.sync()
            task.setTaskCompleted(success: true)
        }
    }
}
