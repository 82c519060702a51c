// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.ml-retrain", using: nil) { task in
            self.scheduleRetrain()
            task.expirationHandler = { Trainer.shared.stop() }
            Trainer.shared.run { task.setTaskCompleted(success: $0) }
        }
        scheduleRetrain()
        return true
    }

    func scheduleRetrain() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.ml-retrain")
        // Meant to wait for the charger; the cast fails and the model trains on battery.
        (request as? BGProcessingTaskRequest)?.requiresExternalPower = true // expect: refresh-request-requirements
        try? BGTaskScheduler.shared.submit(request)
    }
}
