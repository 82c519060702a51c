// swift-format-ignore-file
import BackgroundTasks

/// A task of an unexpected type stops the process with `fatalError`: no path leaves the task unfinished and goes on.
final class PruneScheduler {
    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.prune", using: nil) { task in
            guard let task = task as? BGProcessingTask else {
                fatalError("unexpected task type \(type(of: task))")
            }
            self.schedule()
            task.expirationHandler = { Pruner.cancel() }
            Pruner.run { task.setTaskCompleted(success: $0) }
        }
    }

    func sceneDidEnterBackground() { schedule() }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.prune"))
    }
}
