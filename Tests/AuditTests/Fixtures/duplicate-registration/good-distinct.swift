// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            self.run(task, next: "com.example.refresh")
        }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh.full", using: nil) { task in
            self.run(task, next: "com.example.refresh.full")
        }
        schedule("com.example.refresh")
        schedule("com.example.refresh.full")
        return true
    }

    func schedule(_ identifier: String) {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: identifier))
    }

    func run(_ task: BGTask, next identifier: String) {
        schedule(identifier)
        task.expirationHandler = { Sync.cancel() }
        Sync.start { task.setTaskCompleted(success: $0) }
    }
}
