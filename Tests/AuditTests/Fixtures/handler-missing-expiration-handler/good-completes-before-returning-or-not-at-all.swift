// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The run is counted and the task completed before the handler returns; a task of another type returns at once
/// (a path that never completes the task, which is another rule's). No path leaves work running to cancel.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.counter", using: nil) { task in
            guard let task = task as? BGAppRefreshTask else { return } // expect: handler-not-completed
            self.countRun(task)
        }
        schedule()
        return true
    }

    func countRun(_ task: BGAppRefreshTask) {
        schedule()
        let runs = UserDefaults.standard.integer(forKey: "runs")
        UserDefaults.standard.set(runs + 1, forKey: "runs")
        task.setTaskCompleted(success: true)
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.counter"))
    }
}
