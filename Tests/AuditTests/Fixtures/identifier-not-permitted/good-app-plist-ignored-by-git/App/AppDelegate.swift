// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The project names `App/Info.plist` as the app's, and the tree does not hold it (ignored by git): the only plist
/// here is the tests', so what the app permits cannot be read.
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
