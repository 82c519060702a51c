// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The handler keeps its task; the feed's callback and the expiration handler both finish through one function that
/// takes the task from the property and clears it at once, so whichever comes second finds nothing left to complete.
final class FeedRefresher {
    static let shared = FeedRefresher()
    private var pendingTask: BGTask?

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
        guard let task = pendingTask else { return }
        pendingTask = nil
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
