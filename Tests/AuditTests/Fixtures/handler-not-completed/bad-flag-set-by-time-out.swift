// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The time-out sets `cancelled`, and then the refresh never calls back: the task is not completed.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.digest", using: nil) { task in
            self.scheduleDigest()
            task.expirationHandler = { DigestBuilder.shared.stop() }
            self.buildDigest { ok in // expect: handler-not-completed
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
        DispatchQueue.main.asyncAfter(deadline: .now() + 20) { cancelled = true }
        group.notify(queue: .main) {
            if !cancelled {
                completion(true)
            }
        }
    }
}
