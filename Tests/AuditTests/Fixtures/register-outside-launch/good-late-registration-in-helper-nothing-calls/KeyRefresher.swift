// swift-format-ignore-file
import BackgroundTasks

/// The registration made inside a `Task` sits in a helper left from an earlier design that nothing calls any more:
/// it never runs, after launch or at all.
enum KeyRefresher {
    static let identifier = "com.example.keys"

    static func registerAtLaunch() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            handle(task)
        }
        schedule()
    }

    static func registerWhenSignedIn() {
        Task {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
                handle(task)
            }
        }
    }

    static func handle(_ task: BGTask) {
        schedule()
        task.expirationHandler = { Keys.cancelRefresh() }
        Keys.refresh { task.setTaskCompleted(success: $0) }
    }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: identifier))
    }
}
