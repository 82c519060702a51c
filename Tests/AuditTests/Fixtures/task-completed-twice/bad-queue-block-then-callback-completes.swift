// swift-format-ignore-file
import BackgroundTasks

/// The handler's block sets no expiration handler of its own: the one set before it completes the task and stops
/// nothing, and the block, which runs when the queue gets to it, completes the task again.
final class CacheMaintenance {
    private let queue = DispatchQueue(label: "cache.maintenance")

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.cache", using: nil) { task in
            task.expirationHandler = {
                task.setTaskCompleted(success: false)
            }
            self.queue.async {
                CacheStore.shared.trim()
                task.setTaskCompleted(success: true) // expect: task-completed-twice
                self.schedule()
            }
        }
        schedule()
    }

    private func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.cache"))
    }
}

final class CacheStore {
    static let shared = CacheStore()
    func trim() {}
}
