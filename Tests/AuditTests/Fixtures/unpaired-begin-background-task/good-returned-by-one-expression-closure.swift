// swift-format-ignore-file
import UIKit

/// The begin is the whole body of a local closure, which returns the identifier to the code that runs it on the main
/// thread; the holder keeps it and ends it in `end()`, which the expiration handler calls too.
final class BackgroundHold {
    private var taskID = UIBackgroundTaskIdentifier.invalid

    init(name: String) {
        let begin = {
            UIApplication.shared.beginBackgroundTask(withName: name) { [weak self] in
                self?.end()
            }
        }
        taskID = Thread.isMainThread ? begin() : DispatchQueue.main.sync(execute: begin)
    }

    deinit { end() }

    func end() {
        guard taskID != .invalid else { return }
        UIApplication.shared.endBackgroundTask(taskID)
        taskID = .invalid
    }
}
