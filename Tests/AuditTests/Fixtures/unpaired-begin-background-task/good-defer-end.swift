// swift-format-ignore-file
import UIKit

final class Exporter {
    func exportSynchronously(_ entries: [Entry]) throws {
        var taskID = UIBackgroundTaskIdentifier.invalid
        taskID = UIApplication.shared.beginBackgroundTask(withName: "export", expirationHandler: {
            Exporter.cancelRequested = true
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        })
        defer {
            if taskID != .invalid { UIApplication.shared.endBackgroundTask(taskID) }
        }
        guard !entries.isEmpty else { return }
        try CSV.write(entries)
    }

    static var cancelRequested = false
}
