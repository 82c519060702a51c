// swift-format-ignore-file
import BackgroundTasks

/// The task is kept in a property (so the app's stop button can complete it) and then completed on each branch once:
/// keeping it is not completing it.
final class BackupScheduler {
    private var running: BGTask?

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.backup", using: nil) { task in
            self.schedule()
            self.run(task)
        }
    }

    func sceneDidEnterBackground() { schedule() }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.backup"))
    }

    private func run(_ task: BGTask) {
        running = task
        task.expirationHandler = { Backup.cancel() }
        if Backup.hasPhotos {
            Backup.copyPhotos {
                task.setTaskCompleted(success: true)
                self.running = nil
            }
        } else {
            task.setTaskCompleted(success: true)
            running = nil
        }
    }
}
