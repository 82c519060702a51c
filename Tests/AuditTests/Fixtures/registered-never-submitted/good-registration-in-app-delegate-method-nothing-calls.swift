// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// A registration left behind in a method of the app delegate that nothing calls: no `UIApplicationDelegate` callback
/// has its name, so UIKit never calls it either, and its identifier is never registered (nor meant to be submitted).
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        Reminders.shared.start()
        return true
    }

    func registerLegacyCleanup() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.legacy.cleanup", using: nil) { task in
            task.setTaskCompleted(success: true)
        }
    }
}

final class Reminders {
    static let shared = Reminders()
    func start() {}
}
