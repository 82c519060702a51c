// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The refresh runs in a block operation that waits for its `Task` and never looks at `isCancelled`: cancelling the
/// queue when time is up does not stop a block already running, so the work goes on and nothing completes the task
/// then.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.departures", using: nil) { task in
            self.refreshDepartures(task: task as! BGAppRefreshTask)
        }
        scheduleRefresh()
        return true
    }

    func scheduleRefresh() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.departures"))
    }

    private func refreshDepartures(task: BGAppRefreshTask) {
        scheduleRefresh()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        task.expirationHandler = { // expect: handler-missing-expiration-handler
            print("expired")
            queue.cancelAllOperations()
        }
        let operation = BlockOperation {
            let semaphore = DispatchSemaphore(value: 0)
            Task {
                let ok = await Departures.shared.fetch()
                task.setTaskCompleted(success: ok)
                semaphore.signal()
            }
            semaphore.wait()
        }
        queue.addOperation(operation)
    }
}

final class Departures: Sendable {
    static let shared = Departures()
    func fetch() async -> Bool { true }
}
