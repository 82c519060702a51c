// swift-format-ignore-file
import BackgroundTasks
import Foundation

/// The expiration handler and the work's callback race to complete the task; a lock-guarded flag lets the first
/// one through and sends the other back, whatever the flag is called.
final class CompletionLatch {
    private var fired = false
    private let lock = NSLock()

    func complete(_ task: BGTask, success: Bool) {
        lock.lock()
        defer { lock.unlock() }
        guard !fired else { return }
        fired = true
        task.setTaskCompleted(success: success)
    }
}

final class Refresher {
    static let shared = Refresher()

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.latch.refresh", using: nil) { task in
            self.schedule()
            let latch = CompletionLatch()
            task.expirationHandler = { latch.complete(task, success: false) }
            Feed.shared.reload { ok in latch.complete(task, success: ok) }
        }
        schedule()
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.latch.refresh"))
    }
}

final class Feed {
    static let shared = Feed()
    func reload(_ done: @escaping (Bool) -> Void) { DispatchQueue.global().async { done(true) } }
}
