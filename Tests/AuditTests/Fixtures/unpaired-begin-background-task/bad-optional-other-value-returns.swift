// swift-format-ignore-file
import UIKit

/// `guard let` on something other than the identifier: its early return leaves the task running.
final class ReadingPositionStore {
    var file: PositionFile?

    func persist(_ positions: [Int]) {
        var taskID: UIBackgroundTaskIdentifier?
        taskID = UIApplication.shared.beginBackgroundTask(withName: "persist positions") {
            if let id = taskID { UIApplication.shared.endBackgroundTask(id) }
            taskID = nil
        }
        guard let file else { return } // expect: unpaired-begin-background-task
        file.write(positions)
        if let id = taskID {
            UIApplication.shared.endBackgroundTask(id)
            taskID = nil
        }
    }
}
