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
            self.refresh(task)
        }
        /* Removed after the crash on 2.3:
           BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
               /* the inner comment used to hide this line */ self.refresh(task)
           }
           BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { _ in }
        */
        let note = "BGTaskScheduler.shared.register(forTaskWithIdentifier: \"com.example.refresh\", using: nil) { _ in }"
        print(note.count)
        schedule()
        return true
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
    }

    func refresh(_ task: BGTask) {
        schedule()
        task.expirationHandler = { Feed.cancel() }
        Feed.reload { task.setTaskCompleted(success: $0) }
    }
}
