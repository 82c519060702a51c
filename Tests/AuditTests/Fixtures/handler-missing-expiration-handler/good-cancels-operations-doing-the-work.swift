// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The operation does the cleanup itself, checking whether it was cancelled between batches: cancelling the queue
/// when time is up stops it, and its completion block completes the task either way.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.prune", using: nil) { task in
            self.prune(task: task as! BGProcessingTask)
        }
        schedulePruning()
        return true
    }

    func schedulePruning() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.prune"))
    }

    private func prune(task: BGProcessingTask) {
        schedulePruning()
        let queue = OperationQueue()
        let operation = BlockOperation()
        operation.addExecutionBlock { [unowned operation] in
            for batch in Archive.shared.batches() {
                if operation.isCancelled { return }
                Archive.shared.delete(batch)
            }
        }
        operation.completionBlock = {
            task.setTaskCompleted(success: !operation.isCancelled)
        }
        task.expirationHandler = {
            queue.cancelAllOperations()
        }
        queue.addOperation(operation)
    }
}

final class Archive {
    static let shared = Archive()
    func batches() -> [[URL]] { [] }
    func delete(_ batch: [URL]) {}
}
