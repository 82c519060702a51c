// swift-format-ignore-file
import BackgroundTasks

/// A plugin registers the identifiers its host app names; the handler takes each task as a processing task, which
/// the plugin submits again whenever the app has work queued, so the handler owes no successor.
public final class WorkPlugin {
    public static func registerProcessingTask(withIdentifier identifier: String) {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            if let task = task as? BGProcessingTask {
                task.expirationHandler = { task.setTaskCompleted(success: false) }
                task.setTaskCompleted(success: true)
            } else {
                task.setTaskCompleted(success: false)
            }
        }
    }

    public static func schedule(identifier: String) {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: identifier))
    }
}
