// swift-format-ignore-file
import BackgroundTasks
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {
    let inbox = Inbox()

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.inbox", using: nil) { task in
            self.scheduleInbox()
            task.expirationHandler = { self.inbox.cancel() }
            self.inbox.refresh { ok in
                task.setTaskCompleted(success: ok)
            }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) { scheduleInbox() }

    func scheduleInbox() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.inbox"))
    }
}
