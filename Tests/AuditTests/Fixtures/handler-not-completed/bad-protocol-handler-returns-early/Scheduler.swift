// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The registration hands each task to the handler kept for its identifier, through the app's own protocol; the
/// sync handler returns without completing the task when its client is gone, and the other completes it.
protocol RefreshHandler: AnyObject {
    func handle(_ task: BGTask)
}

enum Refreshes {
    static var handlers: [String: RefreshHandler] = [:]

    static func registerAtLaunch() {
        for identifier in ["com.example.sync", "com.example.flush"] {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
                if let handler = handlers[identifier] {
                    handler.handle(task)
                } else {
                    task.setTaskCompleted(success: true)
                }
            }
        }
    }
}
