// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The refresh runs in an operation, as older sample code did, but the operation's block only starts a `Task`:
/// the block returns at once and the operation is finished, so cancelling the queue when time is up stops nothing,
/// and nothing completes the task then.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.reminders", using: nil) { task in
            self.refreshReminders(task: task as! BGAppRefreshTask)
        }
        scheduleRefresh()
        return true
    }

    func scheduleRefresh() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.reminders"))
    }

    private func refreshReminders(task: BGAppRefreshTask) {
        scheduleRefresh()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let operation = BlockOperation {
            Task { @MainActor in
                await Reminders.shared.reschedule()
                task.setTaskCompleted(success: true)
            }
        }
        task.expirationHandler = { // expect: handler-missing-expiration-handler
            queue.cancelAllOperations()
        }
        queue.addOperation(operation)
    }
}

@MainActor
final class Reminders {
    static let shared = Reminders()
    func reschedule() async {}
}
