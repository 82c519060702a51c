// swift-format-ignore-file
import UIKit

/// A session tracker observes the app's state through notifications: it begins a task on entering the background to
/// send the session's end, and ends it when the app becomes active again (or when the send is done, or when time runs
/// out). The app comes back before it can enter the background again, so no task is held when the next is begun.
final class SessionTracker {
    private var backgroundTask: UIBackgroundTaskIdentifier = .invalid

    func start() {
        NotificationCenter.default.addObserver(self, selector: #selector(didEnterBackground), name: UIApplication.didEnterBackgroundNotification, object: nil)
        NotificationCenter.default.addObserver(self, selector: #selector(didBecomeActive), name: UIApplication.didBecomeActiveNotification, object: nil)
    }

    @objc private func didEnterBackground() {
        backgroundTask = UIApplication.shared.beginBackgroundTask(withName: "session-end") {
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
        if backgroundTask != .invalid {
            UIApplication.shared.endBackgroundTask(backgroundTask)
            backgroundTask = .invalid
        }
    }
}

final class Sessions {
    static let shared = Sessions()
    func sendEnd(_ done: @escaping () -> Void) { done() }
}
