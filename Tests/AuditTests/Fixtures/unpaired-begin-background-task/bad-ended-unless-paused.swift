// swift-format-ignore-file
import UIKit

/// endIfNeeded returns early while the runner is paused, which is no sign the task was ended: a task begun while
/// paused is ended only when it expires.
final class SyncRunner {
    private var isPaused = false

    func run(_ work: @escaping () -> Void) {
        var taskID = UIBackgroundTaskIdentifier.invalid

        func endIfNeeded() {
            if self.isPaused {
                return // expect: unpaired-begin-background-task
            }
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }

        let start = {
            taskID = UIApplication.shared.beginBackgroundTask(withName: "sync") { endIfNeeded() }
            work()
            endIfNeeded()
        }
        start()
    }
}
