// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The handler makes a queue and hands it to the sync engine, which adds its operations to it, each checking whether
/// it was cancelled: cancelling the queue when time is up stops them, and the engine completes the task.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in
            self.sync(task: task as! BGProcessingTask)
        }
        scheduleSync()
        return true
    }

    func scheduleSync() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.sync"))
    }

    private func sync(task: BGProcessingTask) {
        scheduleSync()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        task.expirationHandler = {
            queue.cancelAllOperations()
        }
        SyncEngine.shared.run(on: queue) { ok in
            task.setTaskCompleted(success: ok)
        }
    }
}

final class SyncEngine {
    static let shared = SyncEngine()

    func run(on queue: OperationQueue, completion: @escaping (Bool) -> Void) {
        let operation = BlockOperation()
        operation.addExecutionBlock { [unowned operation] in
            if operation.isCancelled { return }
        }
        operation.completionBlock = { completion(!operation.isCancelled) }
        queue.addOperation(operation)
    }
}
