// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Identifiers.refresh, using: nil) { task in
            Jobs.refresh(task)
        }
        Jobs.scheduleRefresh()
        Jobs.scheduleUpload()
        return true
    }
}
