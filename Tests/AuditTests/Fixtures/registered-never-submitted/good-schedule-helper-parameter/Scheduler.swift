// swift-format-ignore-file
import BackgroundTasks

enum Scheduler {
    static func submit(_ identifier: String, after delay: TimeInterval) {
        let request = BGAppRefreshTaskRequest(identifier: identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: delay)
        try? BGTaskScheduler.shared.submit(request)
    }
}
