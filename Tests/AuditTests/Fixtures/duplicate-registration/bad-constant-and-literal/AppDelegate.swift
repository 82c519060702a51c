// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: TaskIdentifiers.refresh, using: nil) { task in
            Refresh.run(task)
        }
        SyncService.shared.registerAll()
        Refresh.schedule()
        return true
    }
}
