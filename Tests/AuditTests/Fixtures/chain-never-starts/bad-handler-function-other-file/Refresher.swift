// swift-format-ignore-file
import BackgroundTasks

final class Refresher {
    static let identifier = "com.example.refresh"

    func handle(_ task: BGTask) {
        reschedule()
        task.expirationHandler = { Feed.cancel() }
        Feed.reload { task.setTaskCompleted(success: $0) }
    }

    private func reschedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: Self.identifier))
    }
}
