// swift-format-ignore-file
import BackgroundTasks

final class BackgroundTasksController {
    static let shared = BackgroundTasksController()
    private let identifier = "com.example.upload"

    func registerAll() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { [weak self] task in
            self?.upload(task as! BGProcessingTask) // expect: handler-not-completed
        }
    }

    func scheduleUpload() {
        let request = BGProcessingTaskRequest(identifier: identifier)
        request.requiresNetworkConnectivity = true
        try? BGTaskScheduler.shared.submit(request)
    }

    private func upload(_ task: BGProcessingTask) {
        scheduleUpload()
        task.expirationHandler = { Uploader.shared.suspend() }
        Uploader.shared.flush { task.setTaskCompleted(success: $0) }
    }
}
