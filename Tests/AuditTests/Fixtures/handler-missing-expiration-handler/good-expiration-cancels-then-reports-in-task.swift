// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.export", using: nil) { task in
            let export = Task { @MainActor in
                await Archive.write()
                guard !Task.isCancelled else { return }
                task.setTaskCompleted(success: true)
            }
            task.expirationHandler = {
                export.cancel()
                task.setTaskCompleted(success: false)
                Task { await Metrics.record("export expired") }
            }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.export"))
    }
}
