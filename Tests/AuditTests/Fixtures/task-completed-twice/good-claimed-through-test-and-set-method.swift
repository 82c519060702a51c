// swift-format-ignore-file
import BackgroundTasks
import Foundation

/// A small type's method claims the completion once under a lock; the expiration handler and the normal path both
/// complete the task only when their claim succeeds, so it is completed once.
final class CompletionClaim: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false

    func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !claimed else { return false }
        claimed = true
        return true
    }
}

enum Reindexer {
    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.reindex", using: nil) { task in
            schedule()
            let claim = CompletionClaim()
            let work = Task { await Search.reindex() }
            task.expirationHandler = {
                work.cancel()
                if claim.claim() { task.setTaskCompleted(success: false) }
            }
            Task {
                await work.value
                if claim.claim() { task.setTaskCompleted(success: true) }
            }
        }
    }

    static func sceneDidEnterBackground() { schedule() }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.reindex"))
    }
}
