// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The handler reaches its work through a weakly captured delegate, and the method takes the task as `any` of the
/// app's protocol that `BGTask` conforms to (so that tests can pass a stand-in): when the delegate is gone, the
/// call is skipped and the task is never completed.
protocol CompletableTask: AnyObject {
    func setTaskCompleted(success: Bool)
}

extension BGTask: CompletableTask {}

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { [weak self] task in
            self?.route(task: task) // expect: handler-not-completed
        }
        scheduleSync()
        return true
    }

    func route(task: any CompletableTask) {
        scheduleSync()
        task.setTaskCompleted(success: true)
    }

    func scheduleSync() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.sync"))
    }
}
