// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.health-refresh", using: nil) { task in
            self.refresh(task)
        }
        scheduleRefresh()
        return true
    }

    func scheduleRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.health-refresh")
        request.earliestBeginDate = Date(timeIntervalSinceNow: 4 * 3600)
        try? BGTaskScheduler.shared.submit(request)
    }

    func refresh(_ task: BGTask) {
        scheduleRefresh()
        task.expirationHandler = { Health.cancel() }
        Health.merge { task.setTaskCompleted(success: $0) }
    }
}
