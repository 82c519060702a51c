// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.retrain", using: nil) { task in
            self.retrain(task as! BGProcessingTask)
        }
        scheduleRetrain()
        return true
    }

    func scheduleRetrain() {
        let request = BGProcessingTaskRequest(identifier: "com.example.retrain")
        request.requiresExternalPower = true
        try? BGTaskScheduler.shared.submit(request)
    }

    func retrain(_ task: BGProcessingTask) {
        scheduleRetrain()
        let work = Task {
            do {
                try await Model.shared.retrain()
                task.setTaskCompleted(success: true)
            } catch { // expect: handler-not-completed
                Log.error("retrain failed: \(error)")
            }
        }
        task.expirationHandler = { work.cancel() }
    }
}
