// swift-format-ignore-file
import BackgroundTasks
import UIKit

// "Complete once" guards around setTaskCompleted, one of them on a process-wide flag set once:
// neither guards a submit, and the successor is submitted before them.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    static var didConfigureLogging = false

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            if !Self.didConfigureLogging {
                Self.didConfigureLogging = true
                Log.configure()
            }
            self.scheduleAppRefresh()
            var completed = false
            let finish: (Bool) -> Void = { ok in
                guard !completed else { return }
                completed = true
                task.setTaskCompleted(success: ok)
            }
            task.expirationHandler = {
                Feed.cancel()
                finish(false)
            }
            Feed.reload { finish($0) }
        }
        scheduleAppRefresh()
        return true
    }

    func scheduleAppRefresh() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
    }
}
