// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    static let refresh = "com.example.refresh"
    static let insight = "com.example.insight"

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        for identifier in [Self.refresh, Self.insight] {
            _ = identifier
        }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: nil) { task in
            self.run(task, then: Self.refresh, after: 4 * 3600)
        }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.insight, using: nil) { task in
            self.run(task, then: Self.insight, after: 7 * 86400)
        }
        Scheduler.submit(Self.refresh, after: 4 * 3600)
        Scheduler.submit(Self.insight, after: 7 * 86400)
        return true
    }

    func run(_ task: BGTask, then identifier: String, after delay: TimeInterval) {
        Scheduler.submit(identifier, after: delay)
        task.expirationHandler = { Work.cancel() }
        Work.perform { task.setTaskCompleted(success: $0) }
    }
}
