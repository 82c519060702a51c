// swift-format-ignore-file
import BackgroundTasks

final class Uploader {
    static let shared = Uploader()
    private var task: BGTask?

    func start(_ task: BGTask) {
        self.task = task
        schedule()
        Queue.shared.drain { self.task?.setTaskCompleted(success: $0) }
    }

    func didStart() {
        // The kept task gets its expiration handler here.
        task?.expirationHandler = { Queue.shared.stop() }
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.upload"))
    }
}
