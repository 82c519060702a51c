// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: HealthRefresh.identifier, using: nil) { task in
            HealthRefresh.run(task: task as! BGAppRefreshTask)
        }
        HealthRefresh.schedule()
        return true
    }
}
