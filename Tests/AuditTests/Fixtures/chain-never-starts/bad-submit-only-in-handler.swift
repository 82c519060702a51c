// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in // expect: chain-never-starts
            self.scheduleSync()
            task.expirationHandler = { SyncEngine.shared.cancel() }
            SyncEngine.shared.run { task.setTaskCompleted(success: $0) }
        }
        return true
    }

    // Called only from the handler above: the first request is never made.
    func scheduleSync() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.sync")
        request.earliestBeginDate = Date(timeIntervalSinceNow: 3600)
        try? BGTaskScheduler.shared.submit(request)
    }
}
