// swift-format-ignore-file
import UIKit

/// One upload per bookmark; each callback counts itself done in a `defer`, and the last one ends the task.
final class BookmarkSync {
    func push(_ bookmarks: [Bookmark]) {
        guard !bookmarks.isEmpty else { return }
        var taskID = UIBackgroundTaskIdentifier.invalid
        taskID = UIApplication.shared.beginBackgroundTask(withName: "bookmarks") {
            Uploader.shared.cancelAll()
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }
        let lock = NSLock()
        var sent = 0
        bookmarks.forEach { bookmark in
            Uploader.shared.send(bookmark) { [weak self] result in
                defer {
                    lock.lock()
                    sent += 1
                    let last = sent == bookmarks.count
                    lock.unlock()
                    if last { UIApplication.shared.endBackgroundTask(taskID) }
                }
                guard let self else { return }
                if case .failure = result { self.remember(bookmark) }
            }
        }
    }

    private func remember(_ bookmark: Bookmark) {}
}
