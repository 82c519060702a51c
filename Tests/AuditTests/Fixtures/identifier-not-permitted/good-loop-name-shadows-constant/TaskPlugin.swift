// swift-format-ignore-file
import BackgroundTasks
import Foundation
import os

/// A plugin that registers, at launch, the tasks its host scheduled in earlier runs. Its own `identifier` names the
/// logging subsystem, never a task: the loop's `identifier` and `task.identifier` are the stored tasks' names.
final class TaskPlugin {
    static let identifier = "com.example.taskplugin"
    static let log = Logger(subsystem: identifier, category: "tasks")

    static func registerStoredTasks() {
        for (identifier, interval) in UserDefaults.standard.dictionary(forKey: "scheduled") ?? [:] {
            register(identifier, every: interval as? Double ?? 900)
        }
    }

    static func register(_ identifier: String, every interval: Double) {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            schedule(task.identifier, after: interval)
            task.expirationHandler = { Runner.shared.cancel() }
            Runner.shared.run(task.identifier) { task.setTaskCompleted(success: $0) }
        }
    }

    static func schedule(_ identifier: String, after interval: Double) {
        let request = BGAppRefreshTaskRequest(identifier: identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: interval)
        try? BGTaskScheduler.shared.submit(request)
    }
}
