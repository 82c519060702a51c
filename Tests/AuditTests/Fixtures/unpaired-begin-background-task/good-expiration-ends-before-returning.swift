// swift-format-ignore-file
import UIKit

/// The export's callback hops to the main queue before ending the task, which is fine there; the expiration
/// handler, already on the main queue, ends it before it returns.
final class ExportJob {
    private var taskID: UIBackgroundTaskIdentifier = .invalid

    func start() {
        taskID = UIApplication.shared.beginBackgroundTask(withName: "export") {
            self.end()
        }
        Exporter.run { _ in
            DispatchQueue.main.async { self.end() }
        }
    }

    func end() {
        guard taskID != .invalid else { return }
        UIApplication.shared.endBackgroundTask(taskID)
        taskID = .invalid
    }
}
