// swift-format-ignore-file
import BackgroundTasks
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.cleanup", using: nil) { task in // expect: chain-never-starts
            let next = BGProcessingTaskRequest(identifier: "com.example.cleanup")
            next.earliestBeginDate = Date(timeIntervalSinceNow: 86_400)
            try? BGTaskScheduler.shared.submit(next)
            task.expirationHandler = { Database.shared.stopCleaning() }
            Database.shared.clean { task.setTaskCompleted(success: true) }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        // Saves state, but submits nothing.
        Database.shared.save()
    }
}
