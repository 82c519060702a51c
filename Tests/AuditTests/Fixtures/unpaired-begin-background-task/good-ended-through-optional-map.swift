// swift-format-ignore-file
import UIKit

// The optional identifier is handed to `endBackgroundTask` by `map`, in the expiration handler and once every worker
// of the group is done: the task is ended on both ways.
final class FeedRefresher {
    func refreshAll(_ feeds: [Feed]) {
        let group = DispatchGroup()
        var taskID: UIBackgroundTaskIdentifier?
        taskID = UIApplication.shared.beginBackgroundTask {
            taskID.map(UIApplication.shared.endBackgroundTask)
            taskID = nil
        }
        for feed in feeds {
            group.enter()
            feed.reload { group.leave() }
        }
        group.notify(queue: .main) {
            taskID.map(UIApplication.shared.endBackgroundTask)
            taskID = nil
        }
    }
}
