// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in
            self.sync(task as! BGAppRefreshTask)
        }
        scheduleSync()
        return true
    }

    func scheduleSync() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.sync")
        request.earliestBeginDate = Date(timeIntervalSinceNow: 900)
        try? BGTaskScheduler.shared.submit(request)
    }

    func sync(_ task: BGAppRefreshTask) {
        scheduleSync()
        task.expirationHandler = { SyncEngine.shared.cancel() }
        SyncEngine.shared.run { task.setTaskCompleted(success: $0) }
    }
}
