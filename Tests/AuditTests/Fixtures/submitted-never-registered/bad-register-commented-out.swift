// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        // TODO: bring back once the handler is fixed
        // BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.backup", using: nil) { task in
        //     self.backup(task)
        // }
        scheduleBackup()
        return true
    }

    func scheduleBackup() {
        let request = BGProcessingTaskRequest(identifier: "com.example.backup") // expect: submitted-never-registered
        request.requiresExternalPower = true
        request.requiresNetworkConnectivity = true
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            print("backup not scheduled: \(error)")
        }
    }
}
