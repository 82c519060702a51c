// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: TaskIdentifier.engagement, using: nil) { task in // expect: registered-never-submitted, handler-not-rescheduling
            Engagement.remind(task)
        }
        return true
    }
}
