// swift-format-ignore-file
import BackgroundTasks
import Foundation

/// A library's scheduler: the host app calls the public `scheduleNextSync()` when the user turns sync on, so the
/// first request comes from outside the sources even though only the handler calls it here.
public final class SyncScheduler {
    public static let shared = SyncScheduler()
    let identifier = "com.example.library.sync"

    public func registerAtLaunch() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            task.expirationHandler = { SyncClient.shared.cancel() }
            self.run(task)
        }
    }

    public func scheduleNextSync() {
        let request = BGAppRefreshTaskRequest(identifier: identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 3600)
        try? BGTaskScheduler.shared.submit(request)
    }

    private func run(_ task: BGTask) {
        SyncClient.shared.sync { success in
            self.scheduleNextSync()
            task.setTaskCompleted(success: success)
        }
    }
}
