// swift-format-ignore-file
import BackgroundTasks
import UIKit

// The app delegate lives as long as the process: its property keeps `true` across background launches.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var didResubmit = false

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            if !self.didResubmit { // expect: resubmit-blocked-by-flag
                self.didResubmit = true
                try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
            }
            task.expirationHandler = { Feed.cancel() }
            Feed.reload { task.setTaskCompleted(success: $0) }
        }
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
        return true
    }
}
