// swift-format-ignore-file
import BackgroundTasks
import Foundation

// The registered closure hands the task to a method; the method's expiration handler only logs while the upload it
// started runs on. Reported where that handler is set, naming the registration.
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
        task.expirationHandler = { // expect: handler-missing-expiration-handler
            NSLog("upload task is out of time")
        }
        let operation = BlockOperation { Outbox.sendPending() }
        operation.completionBlock = { task.setTaskCompleted(success: !operation.isCancelled) }
        queue.addOperation(operation)
    }

    func sceneDidEnterBackground() { scheduleUpload() }
}
