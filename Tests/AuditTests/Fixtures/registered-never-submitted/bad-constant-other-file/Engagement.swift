// swift-format-ignore-file
import BackgroundTasks

enum Engagement {
    static func makeRequest() -> BGAppRefreshTaskRequest {
        BGAppRefreshTaskRequest(identifier: TaskIdentifier.engagement)
    }

    static func remind(_ task: BGTask) {
        let request = makeRequest()
        task.expirationHandler = { Notifier.cancel() }
        Scheduler.enqueue(request)
        Notifier.remindIfNeeded { task.setTaskCompleted(success: $0) }
    }
}
