// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The expiration handler completes the refresh and cancels the queue; the running block never looks at
/// `isCancelled`, so it runs to its end, and the last operation's completion block completes the refresh again.
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
            task.setTaskCompleted(success: false)
            queue.cancelAllOperations()
        }
        let last = queue.operations.last
        last?.completionBlock = {
            task.setTaskCompleted(success: !(last?.isCancelled ?? false)) // expect: task-completed-twice
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
