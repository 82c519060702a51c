// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// A guard on the app's state words one condition `suspended`: it is no "already completed" flag, and the path it
/// leaves on never completes the task.
final class NodeSyncAppDelegate {
    static let identifier = "com.example.node.sync"
    var running = false
    var suspended = true

    /// Called at launch.
    func registerTask() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.identifier, using: nil) { [unowned self] task in
            Self.schedule()
            guard !self.running, self.suspended else {
                return // expect: handler-not-completed
            }
            task.expirationHandler = { NodeSync.shared.stop() }
            NodeSync.shared.start { task.setTaskCompleted(success: $0) }
        }
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        Self.schedule()
    }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: identifier))
    }
}
