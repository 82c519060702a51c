// swift-format-ignore-file
import BackgroundTasks

final class Uploader {
    static let shared = Uploader()
    private var task: BGTask?

    func start(_ task: BGTask) {
        // Kept for later; no code ever gives it an expiration handler.
        self.task = task
        schedule()
        Queue.shared.drain { self.task?.setTaskCompleted(success: $0) }
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.upload"))
    }
}
