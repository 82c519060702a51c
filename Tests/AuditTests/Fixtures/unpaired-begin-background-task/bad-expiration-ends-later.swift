// swift-format-ignore-file
import UIKit

/// The expiration handler calls end(), which hands the ending to the main queue: it runs after the handler has
/// returned, when iOS may already have suspended the app with the task still held.
final class ExportJob {
    private var taskID: UIBackgroundTaskIdentifier = .invalid

    func start() {
        taskID = UIApplication.shared.beginBackgroundTask(withName: "export") { // expect: unpaired-begin-background-task
            self.end()
        }
        Exporter.run { _ in self.end() }
    }

    func end() {
        DispatchQueue.main.async {
            guard self.taskID != .invalid else { return }
            UIApplication.shared.endBackgroundTask(self.taskID)
            self.taskID = .invalid
        }
    }
}
