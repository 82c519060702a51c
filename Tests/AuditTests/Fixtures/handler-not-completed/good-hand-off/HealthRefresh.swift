// swift-format-ignore-file
import BackgroundTasks

enum HealthRefresh {
    static let identifier = "com.example.health-refresh"

    static func schedule() {
        let request = BGAppRefreshTaskRequest(identifier: identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 4 * 3600)
        try? BGTaskScheduler.shared.submit(request)
    }

    static func run(task: BGAppRefreshTask) {
        schedule()
        let merge = Task { try await Staging.mergeHealthMetrics() }
        task.expirationHandler = { merge.cancel() }
        Task {
            switch await merge.result {
            case .success: task.setTaskCompleted(success: true)
            case .failure: task.setTaskCompleted(success: false)
            }
        }
    }
}
