// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The app's Info.plist is in the tree and does not permit the identifier.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.gas.refresh", using: nil) { task in // expect: identifier-not-permitted
            self.scheduleRefresh()
            task.expirationHandler = { PriceStore.shared.cancelRefresh() }
            PriceStore.shared.refresh { task.setTaskCompleted(success: $0) }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        scheduleRefresh()
    }

    func scheduleRefresh() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.gas.refresh"))
    }
}
