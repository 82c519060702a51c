// swift-format-ignore-file
import BackgroundTasks
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in
            self.scheduleSync()
            task.expirationHandler = { SyncEngine.shared.cancel() }
            SyncEngine.shared.run { task.setTaskCompleted(success: $0) }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        scheduleSync()
    }

    func scheduleSync() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.sync"))
    }
}
