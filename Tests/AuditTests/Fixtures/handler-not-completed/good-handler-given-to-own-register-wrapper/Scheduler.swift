// swift-format-ignore-file
import BackgroundTasks
import os

/// Registers the handler it is given, logging each run; the handler completes its task on every path.
final class Scheduler {
    static let shared = Scheduler()
    private let log = Logger(subsystem: "com.example", category: "tasks")

    func registerTask(forTaskWithIdentifier identifier: String, handler: @escaping (BGTask) -> Void) {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            self.log.debug("task started")
            handler(task)
        }
    }

    func submit(_ identifier: String) {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: identifier))
    }
}

final class Maintenance {
    private var expired = false

    func register() {
        Scheduler.shared.registerTask(forTaskWithIdentifier: "com.example.wrapper.clean") { task in
            Scheduler.shared.submit("com.example.wrapper.clean")
            task.expirationHandler = {
                self.expired = true
                Cache.cancelTrim()
                task.setTaskCompleted(success: false)
            }
            self.clean(task)
        }
        Scheduler.shared.submit("com.example.wrapper.clean")
    }

    /// Returns early once the expiration handler has run: it has completed the task already.
    private func clean(_ task: BGTask) {
        if expired { return }
        Cache.trim { task.setTaskCompleted(success: true) }
    }
}

enum Cache {
    static func trim(_ done: @escaping () -> Void) { done() }
    static func cancelTrim() {}
}
