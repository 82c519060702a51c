// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    // Built at run time: the audit cannot tell which literal it equals, so it does not claim a mismatch.
    let refreshIdentifier = "\(Bundle.main.bundleIdentifier!).refresh"

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: refreshIdentifier, using: nil) { task in
            self.refresh(task)
        }
        schedule()
        return true
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.app.refresh"))
    }

    func refresh(_ task: BGTask) {
        schedule()
        task.expirationHandler = { Feed.cancel() }
        Feed.reload { task.setTaskCompleted(success: $0) }
    }
}
