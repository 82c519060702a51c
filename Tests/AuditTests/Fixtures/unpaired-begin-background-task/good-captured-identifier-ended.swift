// swift-format-ignore-file
import UIKit

/// The identifier is a local of the function, begun inside the work queue's closure; every path of the closure
/// ends the task, and so does the expiration handler.
final class ExportService {
    func exportInBackground(_ document: Document) {
        var taskID = UIBackgroundTaskIdentifier.invalid
        DispatchQueue.global().async {
            taskID = UIApplication.shared.beginBackgroundTask(withName: "export") {
                UIApplication.shared.endBackgroundTask(taskID)
                taskID = .invalid
            }
            if document.hasChanges {
                Exporter.write(document)
            }
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }
    }
}
