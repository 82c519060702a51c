// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.cleanup", using: nil) { task in // expect: handler-not-completed
            self.scheduleCleanup()
            // Completed only when time runs out: every normal run is left hanging.
            task.expirationHandler = { task.setTaskCompleted(success: false) }
            Cache.shared.trim()
        }
        scheduleCleanup()
        return true
    }

    func scheduleCleanup() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.cleanup"))
    }
}
