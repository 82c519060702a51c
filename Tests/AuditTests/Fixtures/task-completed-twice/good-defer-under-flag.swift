// swift-format-ignore-file
// A `defer` completes the task only when no path has (`if !completed`), and every path that completes it sets the
// flag at once: the task is completed once, whichever way the handler leaves.
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.news", using: nil) { task in
            task.expirationHandler = { task.setTaskCompleted(success: false) }
            Task { await Self.refresh(task as! BGAppRefreshTask) }
        }
        Self.schedule()
        return true
    }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.news"))
    }

    static func refresh(_ task: BGAppRefreshTask) async {
        schedule()
        var completed = false
        defer {
            if !completed {
                task.setTaskCompleted(success: true)
            }
        }
        guard await News.isEnabled() else {
            task.setTaskCompleted(success: true)
            completed = true
            return
        }
        await News.update()
        task.setTaskCompleted(success: true)
        completed = true
    }
}
