// swift-format-ignore-file
import UIKit

/// The counter is declared in each callback, so it never reaches the number of bookmarks: no callback ends the task.
final class BookmarkSync {
    func push(_ bookmarks: [Bookmark]) {
        var taskID = UIBackgroundTaskIdentifier.invalid
        taskID = UIApplication.shared.beginBackgroundTask(withName: "bookmarks") {
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }
        bookmarks.forEach { bookmark in
            Uploader.shared.send(bookmark) { result in
                var sent = 0
                sent += 1
                if sent == bookmarks.count { UIApplication.shared.endBackgroundTask(taskID) } // expect: unpaired-begin-background-task
            }
        }
    }
}
