// swift-format-ignore-file
import BackgroundTasks
import Foundation

/// The same scheduler with `scheduleNextSync()` internal: only the handler can make a request, so none ever runs.
public final class SyncScheduler {
    public static let shared = SyncScheduler()
    let identifier = "com.example.library.sync"

    public func registerAtLaunch() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in // expect: chain-never-starts
            task.expirationHandler = { SyncClient.shared.cancel() }
            self.run(task)
        }
    }

    func scheduleNextSync() {
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
