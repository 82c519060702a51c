// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// Both task identifiers are built from the bundle identifier at run time. Whatever that is, neither ends in
/// ".download": the entry the Info.plist keeps for a background download session names no task.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    private lazy var refreshIdentifier = "\(Bundle.main.bundleIdentifier ?? "app").feed.refresh"
    private lazy var cleanupIdentifier = "\(Bundle.main.bundleIdentifier ?? "app").feed.cleanup"

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: refreshIdentifier, using: nil) { task in
            self.refresh(task)
        }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: cleanupIdentifier, using: nil) { task in
            self.cleanUp(task)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: refreshIdentifier))
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: cleanupIdentifier))
    }

    func refresh(_ task: BGTask) {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: refreshIdentifier))
        task.expirationHandler = { Feed.cancel() }
        Feed.reload { task.setTaskCompleted(success: $0) }
    }

    func cleanUp(_ task: BGTask) {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: cleanupIdentifier))
        Feed.deleteOldEntries()
        task.setTaskCompleted(success: true)
    }
}
