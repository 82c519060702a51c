// swift-format-ignore-file
import BackgroundTasks

enum Insights {
    static let identifier = "com.example.weekly-insight"

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: identifier))
    }

    static func compute(_ task: BGTask) {
        schedule()
        let work = Task {
            let insight = await Model.shared.strongestAssociation()
            await Outbox.shared.enqueue(insight)
        }
        task.expirationHandler = { work.cancel() }
        Task {
            await work.value
            task.setTaskCompleted(success: !work.isCancelled)
        }
    }
}
