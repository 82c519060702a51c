// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// An app refresh submitted only at launch: while the app stays in the background the refresh runs once.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.headlines", using: nil) { task in // expect: handler-not-rescheduling
            task.expirationHandler = { Headlines.shared.cancel() }
            Headlines.shared.reload { task.setTaskCompleted(success: $0) }
        }
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.headlines"))
        return true
    }
}
