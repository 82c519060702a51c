// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        register("com.example.refresh")
        register("com.example.cleanup")
        schedule("com.example.refresh")
        schedule("com.example.cleanup")
        return true
    }

    func register(_ identifier: String) {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            self.schedule(identifier)
            task.expirationHandler = { Work.cancel() }
            Work.run { task.setTaskCompleted(success: $0) }
        }
    }

    func schedule(_ identifier: String) {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: identifier))
    }
}
