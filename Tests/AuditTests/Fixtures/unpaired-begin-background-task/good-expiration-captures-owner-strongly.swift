// swift-format-ignore-file
import UIKit

/// The expiration handler captures its owner strongly: it always ends the task (and marks it ended).
final class SilentPushSync {
    private var backgroundTask = UIBackgroundTaskIdentifier.invalid

    func handleSilentPush() {
        guard backgroundTask == .invalid else { return }
        backgroundTask = UIApplication.shared.beginBackgroundTask {
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
