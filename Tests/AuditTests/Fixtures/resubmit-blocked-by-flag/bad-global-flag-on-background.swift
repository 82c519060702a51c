// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// Set when the sync was scheduled; nothing sets it back.
var hasScheduledSync = false

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in
            self.handleSync(task: task as! BGProcessingTask)
        }
        return true
    }

    // Runs every time the app moves to the background, but submits only the first time.
    func applicationDidEnterBackground(_ application: UIApplication) {
        if hasScheduledSync == true { // expect: resubmit-blocked-by-flag
            return
        }
        hasScheduledSync = true
        let request = BGProcessingTaskRequest(identifier: "com.example.sync")
        request.requiresNetworkConnectivity = true
        try? BGTaskScheduler.shared.submit(request)
    }

    func handleSync(task: BGProcessingTask) {
        let queue = OperationQueue()
        task.expirationHandler = { queue.cancelAllOperations() }
        let operation = SyncOperation()
        operation.completionBlock = { task.setTaskCompleted(success: !operation.isCancelled) }
        queue.addOperation(operation)
    }
}
