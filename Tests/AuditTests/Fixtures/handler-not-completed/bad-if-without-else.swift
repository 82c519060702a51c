// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.reminders", using: nil) { task in
            self.reminders(task)
        }
        schedule()
        return true
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.reminders"))
    }

    func reminders(_ task: BGTask) {
        schedule()
        task.expirationHandler = { Reminders.cancel() }
        if Reminders.pending > 0 { // expect: handler-not-completed
            Reminders.deliver()
            task.setTaskCompleted(success: true)
        }
    }
}
