// swift-format-ignore-file
import BackgroundTasks
import Foundation

/// The first region whose download failed completes the task and leaves; otherwise the task is completed after the
/// loop: it is completed once.
final class KeySync {
    static let shared = KeySync()

    func run(_ task: BGTask) {
        KeyServer.downloadAll { report in
            for failure in report.failures {
                Log.error(failure)
                task.setTaskCompleted(success: false)
                return
            }
            task.setTaskCompleted(success: true)
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
