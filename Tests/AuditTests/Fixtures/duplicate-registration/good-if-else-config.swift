// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        // Only one branch is compiled, so the identifier is registered once.
        #if DEBUG
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
                Log.debug("refresh launched")
                self.refresh(task)
            }
        #elseif STAGING
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: .main) { task in
                self.refresh(task)
            }
        #else
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
                self.refresh(task)
            }
        #endif
        schedule()
        return true
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
    }

    func refresh(_ task: BGTask) {
        schedule()
        task.expirationHandler = { Feed.cancel() }
        Feed.reload { task.setTaskCompleted(success: $0) }
    }
}
