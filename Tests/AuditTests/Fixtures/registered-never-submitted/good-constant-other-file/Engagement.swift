// swift-format-ignore-file
import BackgroundTasks

enum Engagement {
    static func schedule() {
        let request = BGAppRefreshTaskRequest(identifier: TaskIdentifier.engagement)
        request.earliestBeginDate = Calendar.current.nextDate(
            after: .now, matching: DateComponents(hour: 20), matchingPolicy: .nextTime)
        try? BGTaskScheduler.shared.submit(request)
    }

    static func remind(_ task: BGTask) {
        schedule()
        task.expirationHandler = { Notifier.cancel() }
        Notifier.remindIfNeeded { task.setTaskCompleted(success: $0) }
    }
}
