// swift-format-ignore-file
import BackgroundTasks
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.upload", using: nil) { task in // expect: handler-missing-expiration-handler
            Uploader.shared.start(task)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) { Uploader.shared.schedule() }
}
