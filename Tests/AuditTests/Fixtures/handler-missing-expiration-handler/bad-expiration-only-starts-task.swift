// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var export: Task<Void, Never>?

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.export", using: nil) { task in
            task.expirationHandler = { [weak self] in // expect: handler-missing-expiration-handler
                Task { @MainActor in
                    self?.export?.cancel()
                    task.setTaskCompleted(success: false)
                }
            }
            self.export = Task { @MainActor in
                await Archive.write()
                task.setTaskCompleted(success: true)
            }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.export"))
    }
}
