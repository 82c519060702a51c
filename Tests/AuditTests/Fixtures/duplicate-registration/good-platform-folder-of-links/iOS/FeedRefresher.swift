// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The macOS folder holds a symbolic link to this file, so both platform targets build the same source.
final class FeedRefresher {
    static let shared = FeedRefresher()
    let identifier = "com.example.feed.refresh"

    func registerTasks() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            self.schedule()
            task.expirationHandler = { FeedStore.shared.cancelSync() }
            FeedStore.shared.sync { task.setTaskCompleted(success: $0) }
        }
    }

    func schedule() {
        let request = BGAppRefreshTaskRequest(identifier: identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 30 * 60)
        try? BGTaskScheduler.shared.submit(request)
    }
}
