// swift-format-ignore-file
import UIKit

/// The expiration handler returns when its weakly captured owner is gone: the owner's `deinit` has run by then, and
/// it ended the task through `stop()`.
public final class BackgroundActivity {
    private var taskID = UIBackgroundTaskIdentifier.invalid

    public init(name: String, _ work: (@escaping () -> Void) -> Void) {
        taskID = UIApplication.shared.beginBackgroundTask(withName: name) { [weak self] in
            guard let self = self else { return }
            self.stop()
        }
        work { self.stop() }
    }

    deinit {
        stop()
    }

    private func stop() {
        guard taskID != .invalid else { return }
        UIApplication.shared.endBackgroundTask(taskID)
        taskID = .invalid
    }
}
