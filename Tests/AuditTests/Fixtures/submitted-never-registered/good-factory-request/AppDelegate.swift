// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Requests.cleanupIdentifier, using: nil) { task in
            self.cleanup(task)
        }
        submitCleanup()
        return true
    }

    func submitCleanup() {
        try? BGTaskScheduler.shared.submit(Requests.cleanup())
    }

    func cleanup(_ task: BGTask) {
        submitCleanup()
        task.expirationHandler = { Cache.shared.stopTrimming() }
        Cache.shared.trim { task.setTaskCompleted(success: $0) }
    }
}
