// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// As in Apple's sample: the expiration handler only cancels the queue, and the last operation's completion block
/// completes the refresh, once, whether it finished or was cancelled.
final class RefreshScheduler {
    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            self.handle(task)
        }
        schedule()
    }

    func handle(_ task: BGTask) {
        schedule()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.addOperation {
            Store.shared.recountStreaks()
        }
        task.expirationHandler = {
            queue.cancelAllOperations()
        }
        let last = queue.operations.last
        last?.completionBlock = {
            task.setTaskCompleted(success: !(last?.isCancelled ?? false))
        }
    }

    private func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
    }
}

final class Store {
    static let shared = Store()
    func recountStreaks() {}
}
