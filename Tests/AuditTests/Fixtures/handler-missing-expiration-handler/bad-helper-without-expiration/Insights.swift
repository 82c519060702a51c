// swift-format-ignore-file
import BackgroundTasks

enum Insights {
    static let identifier = "com.example.weekly-insight"

    static func schedule() {
        let request = BGAppRefreshTaskRequest(identifier: identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 7 * 86400)
        try? BGTaskScheduler.shared.submit(request)
    }

    static func compute(_ task: BGTask) {
        schedule()
        Task {
            let insight = await Model.shared.strongestAssociation()
            await Outbox.shared.enqueue(insight)
            task.setTaskCompleted(success: true)
        }
    }
}
