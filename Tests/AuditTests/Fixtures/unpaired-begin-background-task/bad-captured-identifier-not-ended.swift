// swift-format-ignore-file
import UIKit

/// The identifier is a local of the function, begun inside the work queue's closure: when the export is skipped
/// the closure leaves without ending the task, which is then held until it expires.
final class ExportService {
    func exportInBackground(_ document: Document) {
        var taskID = UIBackgroundTaskIdentifier.invalid
        DispatchQueue.global().async {
            taskID = UIApplication.shared.beginBackgroundTask(withName: "export") {
                UIApplication.shared.endBackgroundTask(taskID)
                taskID = .invalid
            }
            guard document.hasChanges else { return } // expect: unpaired-begin-background-task
            Exporter.write(document)
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }
    }
}
