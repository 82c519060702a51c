// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The expiration handler cancels a queue the handler made and never gave an operation; the work runs in a `Task`
/// that nothing cancels, so cancelling stops nothing and the task is not completed when time is up.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.citations", using: nil) { task in
            Self.refreshCitations(task: task as! BGAppRefreshTask)
        }
        Self.scheduleRefresh()
        return true
    }

    static func scheduleRefresh() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.citations"))
    }

    static func refreshCitations(task: BGAppRefreshTask) {
        scheduleRefresh()
        let operationQueue = OperationQueue()
        operationQueue.maxConcurrentOperationCount = 2
        task.expirationHandler = { // expect: handler-missing-expiration-handler
            operationQueue.cancelAllOperations()
        }
        Task {
            await Citations.shared.refresh()
            task.setTaskCompleted(success: true)
        }
    }
}

final class Citations: Sendable {
    static let shared = Citations()
    func refresh() async {}
}
