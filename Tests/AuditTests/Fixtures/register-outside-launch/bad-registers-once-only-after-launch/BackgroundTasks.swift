// swift-format-ignore-file
import BackgroundTasks

final class BackgroundTasks {
    static let shared = BackgroundTasks()
    private static var isRegistered = false

    // Registers on its first call only, but the first call is the settings screen's, after launch: nothing
    // registers it at launch.
    func registerAll() {
        guard !Self.isRegistered else { return }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in // expect: register-outside-launch
            self.refresh(task)
        }
        Self.isRegistered = true
        schedule()
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
    }

    private func refresh(_ task: BGTask) {
        schedule()
        task.expirationHandler = { Feed.cancel() }
        Feed.reload { task.setTaskCompleted(success: $0) }
    }
}
