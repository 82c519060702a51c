// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The work item reads its own `isCancelled` before it completes the refresh, so the expiration handler's cancel
/// does stop it: the refresh is completed once, by whichever comes first.
final class FeedRefresher {
    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.feed", using: nil) { task in
            self.schedule()
            var work: DispatchWorkItem!
            work = DispatchWorkItem {
                let ok = FeedStore.shared.reloadNow()
                guard !work.isCancelled else { return }
                task.setTaskCompleted(success: ok)
            }
            task.expirationHandler = {
                work.cancel()
                task.setTaskCompleted(success: false)
            }
            DispatchQueue.global(qos: .utility).async(execute: work)
        }
        schedule()
    }

    private func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.feed"))
    }
}

final class FeedStore {
    static let shared = FeedStore()
    func reloadNow() -> Bool { true }
}
