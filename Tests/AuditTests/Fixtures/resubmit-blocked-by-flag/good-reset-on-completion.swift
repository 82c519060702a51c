// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// Whether a sync request is waiting to run; cleared when the task finishes or expires.
var isSyncPending = false

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in
            task.expirationHandler = {
                isSyncPending = false
                SyncEngine.shared.cancel()
            }
            SyncEngine.shared.run { ok in
                isSyncPending = false
                task.setTaskCompleted(success: ok)
            }
        }
        return true
    }

    func sceneDidEnterBackground(_ scene: UIScene) {
        guard !isSyncPending else { return }
        isSyncPending = true
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.sync"))
    }
}
