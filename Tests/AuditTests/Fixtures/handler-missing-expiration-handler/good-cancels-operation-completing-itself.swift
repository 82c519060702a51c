// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The operation's block does its short work and completes the task before it returns: cancelling the queue when
/// time is up keeps a block that has not started from running, and one that has is done at once.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.stamp", using: nil) { task in
            self.stamp(task: task as! BGAppRefreshTask)
        }
        scheduleStamp()
        return true
    }

    func scheduleStamp() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.stamp"))
    }

    private func stamp(task: BGAppRefreshTask) {
        scheduleStamp()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.addOperation {
            UserDefaults.standard.set(Date(), forKey: "lastRefresh")
            task.setTaskCompleted(success: true)
        }
        task.expirationHandler = {
            queue.cancelAllOperations()
        }
    }
}
