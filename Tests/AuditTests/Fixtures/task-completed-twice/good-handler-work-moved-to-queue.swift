// swift-format-ignore-file
import BackgroundTasks

/// The launch handler moves all its work to a queue: the block sets the expiration handler, trims the cache and
/// completes the task at once. The expiration handler cannot run before the block has set it, and the block completes
/// the task as the handler's own body would, not as a callback that may come after the time has run out.
final class CacheMaintenance {
    private let queue = DispatchQueue(label: "cache.maintenance")

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.cache", using: nil) { task in
            self.queue.async {
                task.expirationHandler = {
                    task.setTaskCompleted(success: false)
                }
                CacheStore.shared.trim()
                task.setTaskCompleted(success: true)
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
