// swift-format-ignore-file
import BackgroundTasks

protocol SyncDelegate: AnyObject {
    func runSync(completion: @escaping (Bool) -> Void)
}

final class SyncScheduler {
    static let shared = SyncScheduler()
    weak var delegate: SyncDelegate?

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in
            self.schedule()
            task.expirationHandler = { SyncQueue.cancelAll() }
            // When the weak delegate is gone the call is skipped, and the task is never completed.
            self.delegate?.runSync { success in // expect: handler-not-completed
                task.setTaskCompleted(success: success)
            }
        }
    }

    func sceneDidEnterBackground() { schedule() }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.sync"))
    }
}
