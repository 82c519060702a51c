// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The operation's completion block completes the task: cancelling the queue when time is up takes an operation that
/// has not started off it at once, and its completion block then completes the task, as in Apple's sample.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.guide", using: nil) { task in
            self.refreshGuide(task: task as! BGAppRefreshTask)
        }
        scheduleGuide()
        return true
    }

    func scheduleGuide() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.guide"))
    }

    private func refreshGuide(task: BGAppRefreshTask) {
        scheduleGuide()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let operation = BlockOperation {
            Guide.shared.reload()
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

final class Guide {
    static let shared = Guide()
    func reload() {}
}
