// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The compaction is a processing task submitted at every launch, so its handler does not submit a successor.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        registerCompaction()
        return true
    }

    private func registerCompaction() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.compact", using: nil) { task in
            task.expirationHandler = { MessageStore.shared.stopCompacting() }
            MessageStore.shared.compact { task.setTaskCompleted(success: $0) }
        }
        let request = BGProcessingTaskRequest(identifier: "com.example.compact")
        request.requiresExternalPower = true
        try? BGTaskScheduler.shared.submit(request)
    }
}
