// swift-format-ignore-file
import UIKit

/// A session tracker observes the app's state through notifications: it begins a task on entering the background to
/// send the session's end, but its callback for becoming active only notes the time: a send still waiting when the app
/// leaves again holds a task whose identifier the next begin overwrites.
final class SessionTracker {
    private var backgroundTask: UIBackgroundTaskIdentifier = .invalid

    func start() {
        NotificationCenter.default.addObserver(self, selector: #selector(didEnterBackground), name: UIApplication.didEnterBackgroundNotification, object: nil)
        NotificationCenter.default.addObserver(self, selector: #selector(didBecomeActive), name: UIApplication.didBecomeActiveNotification, object: nil)
    }

    @objc private func didEnterBackground() {
        backgroundTask = UIApplication.shared.beginBackgroundTask(withName: "session-end") { // expect: unpaired-begin-background-task
            UIApplication.shared.endBackgroundTask(self.backgroundTask)
            self.backgroundTask = .invalid
        }
        Sessions.shared.sendEnd { [weak self] in
            guard let self, self.backgroundTask != .invalid else { return }
            UIApplication.shared.endBackgroundTask(self.backgroundTask)
            self.backgroundTask = .invalid
        }
    }

    @objc private func didBecomeActive() {
        Sessions.shared.lastActive = Date()
    }
}

final class Sessions {
    static let shared = Sessions()
    var lastActive: Date?
    func sendEnd(_ done: @escaping () -> Void) { done() }
}
