// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// A repeating timer checks once a second whether the sync is done: a tick that finds it running leaves the
/// completion to a later tick, and the expiration handler completes the task if none comes in time.
final class SyncScheduler {
    private var ticker: Timer?

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in
            self.schedule()
            Sync.start()
            task.expirationHandler = {
                self.ticker?.invalidate()
                task.setTaskCompleted(success: false)
            }
            self.ticker = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { timer in
                guard Sync.isFinished else { return }
                timer.invalidate()
                task.setTaskCompleted(success: true)
            }
        }
    }

    func sceneDidEnterBackground() { schedule() }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.sync"))
    }
}
