// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The expiration handler cancels the fetch and completes the task; a fetch that still returns, with nothing new,
/// completes it again in the guard's `else`, with no test of cancellation before.
final class FeedRefresher {
    static let identifier = "com.example.feed.refresh"

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

    func handle(_ task: BGTask) {
        schedule()
        let work = Task {
            do {
                let items = try await FeedClient().fetchNewItems()
                guard !items.isEmpty else { return task.setTaskCompleted(success: true) } // expect: task-completed-twice
                Notifier.post(items)
                task.setTaskCompleted(success: true) // expect: task-completed-twice
            } catch {
                task.setTaskCompleted(success: false) // expect: task-completed-twice
            }
        }
        task.expirationHandler = {
            work.cancel()
            task.setTaskCompleted(success: false)
        }
    }
}

final class AppDelegate: UIResponder, UIApplicationDelegate {
    let refresher = FeedRefresher()

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        refresher.registerAndSchedule()
        return true
    }
}
