// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The target's Info.plist is InfoPlists/Journal.plist (INFOPLIST_FILE can name any file): it permits the identifier.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.journal.sync", using: nil) { task in
            self.sync(task)
        }
        schedule()
        return true
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.journal.sync"))
    }

    func sync(_ task: BGTask) {
        schedule()
        task.expirationHandler = { Journal.shared.cancelSync() }
        Journal.shared.sync { task.setTaskCompleted(success: $0) }
    }
}
