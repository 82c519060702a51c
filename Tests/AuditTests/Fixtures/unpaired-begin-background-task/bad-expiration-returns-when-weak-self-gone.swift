// swift-format-ignore-file
import UIKit

/// The expiration handler captures its owner weakly and returns when it is gone, before it ends the task: then
/// nothing ends it.
final class SilentPushSync {
    private var backgroundTask = UIBackgroundTaskIdentifier.invalid

    func handleSilentPush() {
        guard backgroundTask == .invalid else { return }
        backgroundTask = UIApplication.shared.beginBackgroundTask { [weak self] in // expect: unpaired-begin-background-task
            guard let self = self else {
                return
            }
            UIApplication.shared.endBackgroundTask(self.backgroundTask)
            self.backgroundTask = .invalid
        }
        Outbox.flush {
            UIApplication.shared.endBackgroundTask(self.backgroundTask)
            self.backgroundTask = .invalid
        }
    }
}

enum Outbox {
    static func flush(_ done: @escaping () -> Void) { DispatchQueue.global().async { done() } }
}
