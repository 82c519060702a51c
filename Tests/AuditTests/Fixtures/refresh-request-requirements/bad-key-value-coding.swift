// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.backup", using: nil) { task in
            self.scheduleBackup()
            task.expirationHandler = { Backup.cancel() }
            Backup.run { task.setTaskCompleted(success: $0) }
        }
        scheduleBackup()
        return true
    }

    func scheduleBackup() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.backup")
        request.setValue(true, forKey: "requiresNetworkConnectivity") // expect: refresh-request-requirements
        try? BGTaskScheduler.shared.submit(request)
    }
}
