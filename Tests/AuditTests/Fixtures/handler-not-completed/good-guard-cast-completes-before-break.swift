// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            self.handle(task)
        }
        scheduleRefresh()
        return true
    }

    func scheduleRefresh() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
    }

    /// The failed cast completes the task before it leaves the `switch`.
    func handle(_ task: BGTask) {
        switch task.identifier {
        case "com.example.refresh":
            guard let refreshTask = task as? BGAppRefreshTask else {
                task.setTaskCompleted(success: false)
                break
            }
            refresh(refreshTask)
        default:
            task.setTaskCompleted(success: false)
        }
    }

    func refresh(_ task: BGAppRefreshTask) {
        scheduleRefresh()
        let reload = Feed.shared.reload { task.setTaskCompleted(success: $0) }
        task.expirationHandler = { reload.cancel() }
    }
}
