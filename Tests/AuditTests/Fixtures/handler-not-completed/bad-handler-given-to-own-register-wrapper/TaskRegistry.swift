// swift-format-ignore-file
import BackgroundTasks

/// The app's one place that talks to BGTaskScheduler: it registers whatever handler it is given.
final class TaskRegistry {
    static let shared = TaskRegistry()

    func register(_ identifier: String, handler: @escaping (BGTask) -> Void) {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil, launchHandler: handler)
    }

    /// The same, logging each run first.
    func registerLogged(_ identifier: String, handler: @escaping (BGTask) -> Void) {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            print("running \(identifier)")
            handler(task)
        }
    }

    func schedule(_ identifier: String) {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: identifier))
    }
}
