// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The expiration handler completes the task and stops nothing; the sync, awaited inside an `if let` that has nothing
/// to do with time running out, completes it again when it returns.
final class SyncScheduler {
    var onSync: (() async -> Void)?

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in
            guard let task = task as? BGProcessingTask else {
                task.setTaskCompleted(success: false)
                return
            }
            Task { await self.run(task) }
        }
    }

    private func run(_ task: BGProcessingTask) async {
        schedule()
        task.expirationHandler = {
            task.setTaskCompleted(success: false)
        }
        if let onSync {
            await onSync()
            task.setTaskCompleted(success: true) // expect: task-completed-twice
        } else {
            task.setTaskCompleted(success: false)
        }
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.sync"))
    }
}

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    let scheduler = SyncScheduler()

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        scheduler.register()
        scheduler.schedule()
        return true
    }
}
