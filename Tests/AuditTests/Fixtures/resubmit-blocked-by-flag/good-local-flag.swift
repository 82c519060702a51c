// swift-format-ignore-file
import BackgroundTasks
import UIKit

// A flag local to the call starts false every time.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            self.schedule(["com.example.refresh", "com.example.refresh"])
            task.expirationHandler = { Feed.cancel() }
            Feed.reload { task.setTaskCompleted(success: $0) }
        }
        schedule(["com.example.refresh"])
        return true
    }

    func schedule(_ identifiers: [String]) {
        var submitted = false
        for identifier in identifiers {
            guard !submitted else { return }
            submitted = true
            try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: identifier))
        }
    }
}
