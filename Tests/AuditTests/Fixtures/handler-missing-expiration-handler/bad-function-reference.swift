// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(
            forTaskWithIdentifier: "com.example.engagement", using: nil, launchHandler: handleEngagement)
        scheduleEngagement()
        return true
    }

    func scheduleEngagement() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.engagement"))
    }

    func handleEngagement(_ task: BGTask) { // expect: handler-missing-expiration-handler
        scheduleEngagement()
        Reminders.sendIfNeeded { task.setTaskCompleted(success: $0) }
    }
}
