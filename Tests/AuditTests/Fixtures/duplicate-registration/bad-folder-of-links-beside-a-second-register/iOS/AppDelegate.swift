// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        SyncScheduler.register()
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in
            task.expirationHandler = { SyncEngine.shared.stop() }
            SyncEngine.shared.run { task.setTaskCompleted(success: $0) }
        }
        SyncScheduler.schedule()
        return true
    }
}
