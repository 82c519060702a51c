// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// Rescheduling comes first; the task is completed once, in the `do` or in the `catch`.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.report", using: nil) { task in
            task.expirationHandler = { Reporter.shared.cancel() }
            do {
                try self.schedule()
                try Reporter.shared.sendPending()
                task.setTaskCompleted(success: true)
            } catch {
                task.setTaskCompleted(success: false)
            }
        }
        try? schedule()
        return true
    }

    func schedule() throws {
        try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.report"))
    }
}
