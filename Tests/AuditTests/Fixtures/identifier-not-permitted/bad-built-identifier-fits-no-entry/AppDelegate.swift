// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    // Both are built from the bundle identifier; only the refresh one has an entry its ending fits.
    static let refreshIdentifier = "\(Bundle.main.bundleIdentifier!).refresh"
    static let cleanupIdentifier = "\(Bundle.main.bundleIdentifier!).cleanup"

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refreshIdentifier, using: nil) { task in
            self.refresh(task)
        }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.cleanupIdentifier, using: nil) { task in // expect: identifier-not-permitted
            self.cleanUp(task)
        }
        schedule()
        return true
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: Self.refreshIdentifier))
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: Self.cleanupIdentifier))
    }

    func refresh(_ task: BGTask) {
        schedule()
        task.expirationHandler = { Feed.cancel() }
        Feed.reload { task.setTaskCompleted(success: $0) }
    }

    func cleanUp(_ task: BGTask) {
        schedule()
        task.expirationHandler = { Store.cancelCompaction() }
        Store.compact { task.setTaskCompleted(success: $0) }
    }
}
