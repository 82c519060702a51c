// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The expiration handler cancels the sync at once but completes the task only in a `Task` that first waits for the
/// sync to save its progress: after the handler has returned. The sync, which never checks for cancellation, then
/// completes the task too.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in
            self.sync(task)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.sync"))
    }

    private func sync(_ task: BGTask) {
        let work = Task { @MainActor in
            await SyncService.shared.run()
            task.setTaskCompleted(success: true) // expect: task-completed-twice
        }
        task.expirationHandler = { // expect: handler-missing-expiration-handler
            work.cancel()
            Task {
                try? await Task.sleep(nanoseconds: 500_000_000)
                task.setTaskCompleted(success: false)
            }
        }
    }
}
