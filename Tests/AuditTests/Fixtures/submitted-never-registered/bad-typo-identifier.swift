// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in // expect: registered-never-submitted
            self.refresh(task)
        }
        schedule()
        return true
    }

    func schedule() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.refesh") // expect: submitted-never-registered
        try? BGTaskScheduler.shared.submit(request)
    }

    func refresh(_ task: BGTask) {
        schedule()
        task.expirationHandler = { Feed.cancel() }
        Feed.reload { task.setTaskCompleted(success: $0) }
    }
}
