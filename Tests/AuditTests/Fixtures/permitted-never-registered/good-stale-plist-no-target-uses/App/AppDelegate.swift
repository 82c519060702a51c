// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The app registers the one identifier its Info.plist permits; a stale copy of the plist that no target uses
/// permits one more.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            self.refresh(task as! BGAppRefreshTask)
        }
        schedule()
        return true
    }

    private func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
    }

    private func refresh(_ task: BGAppRefreshTask) {
        schedule()
        let reload = Feed.shared.reload { task.setTaskCompleted(success: $0) }
        task.expirationHandler = { reload.cancel() }
    }
}
