// swift-format-ignore-file
import BackgroundTasks
import UIKit

// No Info.plist in the audited tree (it lives in another target folder): nothing to compare against.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            task.expirationHandler = { Feed.cancel() }
            try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
            Feed.reload { task.setTaskCompleted(success: $0) }
        }
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
        return true
    }
}
