// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The handler wraps the task in an object of its own, which keeps it; when no job is waiting it completes the task
/// through the wrapper and returns, otherwise the job gets the wrapper. Each path completes the task once.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var jobs: [String: (ManagedTask) -> Void] = [:]

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.jobs", using: .main) { task in
            let processing = task as! BGProcessingTask
            let managed = ManagedTask(task: processing)
            guard let job = self.jobs["com.example.jobs"] else {
                managed.setTaskCompleted(success: false)
                return
            }
            job(managed)
        }
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.jobs"))
        return true
    }
}

final class ManagedTask {
    private let task: BGProcessingTask

    init(task: BGProcessingTask) {
        self.task = task
        task.expirationHandler = { Jobs.cancelAll() }
    }

    func setTaskCompleted(success: Bool) {
        task.setTaskCompleted(success: success)
    }
}

enum Jobs {
    static func cancelAll() {}
}
