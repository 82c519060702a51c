// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            self.refresh(task)
        }
        // Merged from another branch: the same handler, registered a second time.
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in // expect: duplicate-registration
            self.refresh(task)
        }
        schedule()
        return true
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
    }

    func refresh(_ task: BGTask) {
        schedule()
        task.expirationHandler = { Feed.shared.cancel() }
        Feed.shared.reload { task.setTaskCompleted(success: $0) }
    }
}
