// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// One method runs both tasks, and is given the function that submits the next request of each: passed by name, it
/// is called first thing, so each refresh schedules the next.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            self.run(task, scheduleNext: self.scheduleRefresh)
        }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.index", using: nil) { task in
            self.run(task, scheduleNext: self.scheduleIndexing)
        }
        scheduleRefresh()
        scheduleIndexing()
        return true
    }

    private func run(_ task: BGTask, scheduleNext: @escaping () -> Void) {
        scheduleNext()
        let work = Task {
            await Library.shared.sync()
            task.setTaskCompleted(success: !Task.isCancelled)
        }
        task.expirationHandler = { work.cancel() }
    }

    func scheduleRefresh() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
    }

    func scheduleIndexing() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.index"))
    }
}

final class Library {
    static let shared = Library()
    func sync() async {}
}
