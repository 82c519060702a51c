// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The finishing function takes the task and the feed's address in one guard: when no feed is configured it leaves
/// with the task still held, and nothing completes it.
final class FeedRefresher {
    static let shared = FeedRefresher()
    private var pendingTask: BGTask?
    private var feedURL: URL?

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.feed", using: nil, launchHandler: run(task:))
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.feed"))
    }

    private func run(task: BGTask) {
        pendingTask = task
        schedule()
        task.expirationHandler = { [weak self] in self?.finish(success: false) }
        Feed.shared.reload { ok in self.finish(success: ok) }
    }

    private func finish(success: Bool) {
        guard let task = pendingTask, let url = feedURL else { return } // expect: handler-not-completed
        pendingTask = nil
        Feed.shared.markRead(url)
        task.setTaskCompleted(success: success)
    }
}

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        FeedRefresher.shared.register()
        FeedRefresher.shared.schedule()
        return true
    }
}
