// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// Each build configuration has its own Info plist (`Info-dev.plist`, `Info-prod.plist`), with no bundle identifier:
/// the build writes it from its settings. Both still permit a task the app no longer registers. The service
/// configuration beside them is not an Info.plist.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.steps.sync", using: nil) { task in
            self.sync(task)
        }
        schedule()
        return true
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.steps.sync"))
    }

    func sync(_ task: BGTask) {
        schedule()
        task.expirationHandler = { Steps.shared.cancelSync() }
        Steps.shared.sync { task.setTaskCompleted(success: $0) }
    }
}

final class Steps {
    static let shared = Steps()
    func sync(_ done: @escaping (Bool) -> Void) { done(true) }
    func cancelSync() {}
}
