// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        // Deferred "so that launch is faster": the block runs after this method has returned.
        DispatchQueue.main.async {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.cleanup", using: nil) { task in // expect: register-outside-launch
                self.handleCleanup(task: task as! BGProcessingTask)
            }
            self.scheduleCleanup()
        }
        return true
    }

    func scheduleCleanup() {
        let request = BGProcessingTaskRequest(identifier: "com.example.cleanup")
        request.requiresExternalPower = true
        try? BGTaskScheduler.shared.submit(request)
    }

    func handleCleanup(task: BGProcessingTask) {
        scheduleCleanup()
        task.expirationHandler = { Database.shared.cancelVacuum() }
        Database.shared.vacuum { finished in
            task.setTaskCompleted(success: finished)
        }
    }
}
