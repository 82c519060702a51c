// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The expiration handler completes the task and marks that it did; the sync completes it only when the mark is not
/// set, so the task is completed once.
final class SyncScheduler {
    var onSync: (() async -> Void)?
    private var expired = false

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
            self.expired = true
            task.setTaskCompleted(success: false)
        }
        if let onSync {
            await onSync()
            guard !expired else { return }
            task.setTaskCompleted(success: true)
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
