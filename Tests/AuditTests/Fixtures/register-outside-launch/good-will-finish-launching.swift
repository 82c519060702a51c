// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    // Registering in willFinishLaunching is earlier still, and just as valid.
    func application(
        _ application: UIApplication,
        willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            self.refresh(task)
        }
        return true
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
        schedule()
        return true
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
    }

    func refresh(_ task: BGTask) {
        schedule()
        task.expirationHandler = { Inbox.shared.cancel() }
        Inbox.shared.fetch { result in
            switch result {
            case .success: task.setTaskCompleted(success: true)
            case .failure: task.setTaskCompleted(success: false)
            }
        }
    }
}
