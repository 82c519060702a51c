// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The run is uploaded and the task completed when the upload answers, after the handler has returned, with no
/// expiration handler to stop the upload when time runs out.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.counter", using: nil) { task in // expect: handler-missing-expiration-handler
            guard let task = task as? BGAppRefreshTask else { return } // expect: handler-not-completed
            self.countRun(task)
        }
        schedule()
        return true
    }

    func countRun(_ task: BGAppRefreshTask) {
        schedule()
        let runs = UserDefaults.standard.integer(forKey: "runs")
        RunCounter.upload(runs + 1) { task.setTaskCompleted(success: $0) }
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.counter"))
    }
}
