// swift-format-ignore-file
import BackgroundTasks

enum HealthRefresh {
    static let identifier = "com.example.health-refresh"

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: identifier))
    }

    static func run(task: BGAppRefreshTask) {
        schedule()
        task.expirationHandler = { Staging.cancel() }
        guard Staging.hasPendingMetrics else { return } // expect: handler-not-completed
        Staging.merge { task.setTaskCompleted(success: $0) }
    }
}
