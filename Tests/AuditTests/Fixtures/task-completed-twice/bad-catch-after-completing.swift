// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The task is completed, then rescheduling throws: the `catch` completes it a second time.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.report", using: nil) { task in
            task.expirationHandler = { Reporter.shared.cancel() }
            do {
                try Reporter.shared.sendPending()
                task.setTaskCompleted(success: true)
                try self.schedule()
            } catch {
                task.setTaskCompleted(success: false) // expect: task-completed-twice
            }
        }
        try? schedule()
        return true
    }

    func schedule() throws {
        try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.report"))
    }
}
