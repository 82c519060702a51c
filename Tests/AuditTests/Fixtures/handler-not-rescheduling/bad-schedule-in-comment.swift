// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.digest", using: nil) { task in // expect: handler-not-rescheduling
            self.digest(task)
        }
        scheduleDigest()
        return true
    }

    func scheduleDigest() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.digest"))
    }

    func digest(_ task: BGTask) {
        // self.scheduleDigest()   (disabled while debugging, never turned back on)
        task.expirationHandler = { Digest.cancel() }
        Digest.build { task.setTaskCompleted(success: $0) }
    }
}
