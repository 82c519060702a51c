// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// `cancelled` is declared and never set again (the code that set it was taken out), so the refresh always calls
/// back and the task is always completed.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.digest", using: nil) { task in
            self.scheduleDigest()
            task.expirationHandler = { DigestBuilder.shared.stop() }
            self.buildDigest { ok in
                task.setTaskCompleted(success: ok)
            }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) { scheduleDigest() }

    func scheduleDigest() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.digest"))
    }

    private func buildDigest(completion: @escaping (Bool) -> Void) {
        var cancelled = false
        let group = DispatchGroup()
        group.enter()
        DigestBuilder.shared.collect { group.leave() }
        // cancelled = true  (set by a time-out that was removed)
        group.notify(queue: .main) {
            if !cancelled {
                completion(true)
            }
        }
    }
}
