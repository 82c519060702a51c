// swift-format-ignore-file
import BackgroundTasks
import Foundation

// The registered closure hands the task to a method whose expiration handler cancels the upload it started; the
// upload's completion block then completes the task.
final class UploadScheduler {
    static let shared = UploadScheduler()
    private let queue = OperationQueue()

    func registerTasks() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.upload", using: nil) { task in
            self.runUpload(task as! BGProcessingTask)
        }
    }

    func scheduleUpload() {
        let request = BGProcessingTaskRequest(identifier: "com.example.upload")
        request.requiresNetworkConnectivity = true
        try? BGTaskScheduler.shared.submit(request)
    }

    private func runUpload(_ task: BGProcessingTask) {
        scheduleUpload()
        let operation = BlockOperation { Outbox.sendPending() }
        task.expirationHandler = {
            operation.cancel()
        }
        operation.completionBlock = { task.setTaskCompleted(success: !operation.isCancelled) }
        queue.addOperation(operation)
    }

    func sceneDidEnterBackground() { scheduleUpload() }
}
