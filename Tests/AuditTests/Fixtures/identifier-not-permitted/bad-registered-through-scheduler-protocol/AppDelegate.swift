// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    let scheduler: TaskScheduling = BGTaskScheduler.shared

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        _ = scheduler.registerHandler(forTaskWithIdentifier: "com.example.mail.refresh", using: nil) { task in
            self.refresh(task)
        }
        // The identifier registered here is not among the permitted ones: registering it raises at launch.
        _ = scheduler.registerHandler(forTaskWithIdentifier: "com.example.mail.cleanup", using: nil) { task in // expect: identifier-not-permitted
            self.cleanUp(task)
        }
        schedule()
        return true
    }

    func schedule() {
        try? scheduler.submit(BGAppRefreshTaskRequest(identifier: "com.example.mail.refresh"))
        try? scheduler.submit(BGProcessingTaskRequest(identifier: "com.example.mail.cleanup"))
    }

    func refresh(_ task: BGTask) {
        schedule()
        task.expirationHandler = { Mail.cancel() }
        Mail.fetch { task.setTaskCompleted(success: $0) }
    }

    func cleanUp(_ task: BGTask) {
        task.expirationHandler = { Mail.cancel() }
        Mail.compact { task.setTaskCompleted(success: $0) }
    }
}
