// swift-format-ignore-file
import BackgroundTasks
import UIKit

// The flag keeps launch and background transitions from submitting twice; the handler clears it
// before it schedules the next run, so every run submits its successor.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    static var didSchedule = false

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            Self.didSchedule = false
            self.scheduleAppRefresh()
            task.expirationHandler = { Feed.cancel() }
            Feed.reload { task.setTaskCompleted(success: $0) }
        }
        scheduleAppRefresh()
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        scheduleAppRefresh()
    }

    func scheduleAppRefresh() {
        guard !Self.didSchedule else { return }
        Self.didSchedule = true
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
    }
}
