// swift-format-ignore-file
import BackgroundTasks
import Foundation

/// Each region whose download failed completes the task, and the loop goes on: with two failed regions it is
/// completed twice (and once more after the loop).
final class KeySync {
    static let shared = KeySync()

    func run(_ task: BGTask) {
        KeyServer.downloadAll { report in
            for failure in report.failures {
                Log.error(failure)
                task.setTaskCompleted(success: false) // expect: task-completed-twice
            }
            task.setTaskCompleted(success: report.failures.isEmpty)
        }
    }

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.keys", using: nil) { task in
            self.schedule()
            task.expirationHandler = { KeyServer.cancel() }
            self.run(task)
        }
    }

    func sceneDidEnterBackground() { schedule() }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.keys"))
    }
}
