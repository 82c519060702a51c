// swift-format-ignore-file
import UIKit

/// The identifier is kept in an optional; the expiration handler ends it and clears it to `nil`, so the branch
/// where `if let` finds nothing is the one where the task is already over.
final class ReadingPositionStore {
    func persist(_ positions: [Int]) -> Bool {
        guard !positions.isEmpty else { return false }
        var taskID: UIBackgroundTaskIdentifier?
        taskID = UIApplication.shared.beginBackgroundTask(withName: "persist positions") {
            guard let id = taskID else { return }
            UIApplication.shared.endBackgroundTask(id)
            taskID = nil
        }

        let written = PositionFile.write(positions)

        if let id = taskID {
            UIApplication.shared.endBackgroundTask(id)
            taskID = nil
        }
        return written
    }

    func flush() {
        var taskID: UIBackgroundTaskIdentifier?
        taskID = UIApplication.shared.beginBackgroundTask {
            if let id = taskID { UIApplication.shared.endBackgroundTask(id) }
            taskID = nil
        }
        DispatchQueue.main.asyncAfter(deadline: .now() + 2) {
            PositionFile.flush()
            guard let id = taskID else { return }
            UIApplication.shared.endBackgroundTask(id)
            taskID = nil
        }
    }
}
