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

    /// A failed cast leaves the `switch` by `break`, and the task is never completed.
    func handle(_ task: BGTask) {
        switch task.identifier {
        case "com.example.refresh":
            guard let task = task as? BGAppRefreshTask else { break } // expect: handler-not-completed
            refresh(task)
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
