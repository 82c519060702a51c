// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The expiration handler cancels the work and completes the task through a nested function; the work's returns on
/// `Task.isCancelled` are taken only after that.
final class RefreshScheduler {
    static let identifier = "com.example.notifications.refresh"

    /// Called from `application(_:didFinishLaunchingWithOptions:)`.
    func registerAndSchedule() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.identifier, using: nil) { task in
            self.handle(task)
        }
        schedule()
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: Self.identifier))
    }

    private func handle(_ task: BGTask) {
        schedule()
        var work: Task<Void, Never>?
        var completed = false
        let lock = NSLock()

        func markComplete(success: Bool) {
            lock.lock()
            defer { lock.unlock() }
            guard !completed else { return }
            completed = true
            task.setTaskCompleted(success: success)
        }

        task.expirationHandler = {
            work?.cancel()
            markComplete(success: false)
        }
        work = Task { @MainActor in
            guard !Task.isCancelled else { return }
            await NotificationQueue.shared.refresh()
            guard !Task.isCancelled else { return }
            markComplete(success: true)
        }
    }
}
