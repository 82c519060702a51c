// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The registered closure casts the task and hands it to a method that reschedules and starts the cleanup, but
/// never completes the task: the mistake is in that method, where it is reported (the missing expiration handler,
/// which the task needs wherever it is handed, at the registration).
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.cleanup", using: nil) { task in // expect: handler-missing-expiration-handler
            self.handleCleanup(task: task as! BGProcessingTask)
        }
        scheduleCleanup()
        return true
    }

    func scheduleCleanup() {
        let request = BGProcessingTaskRequest(identifier: "com.example.cleanup")
        try? BGTaskScheduler.shared.submit(request)
    }

    func handleCleanup(task: BGProcessingTask) { // expect: handler-not-completed
        scheduleCleanup()
        Cache.shared.trim()
    }
}

final class Cache {
    static let shared = Cache()
    func trim() { DispatchQueue.global().async {} }
}
