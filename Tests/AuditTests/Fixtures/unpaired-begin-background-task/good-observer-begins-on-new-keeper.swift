// swift-format-ignore-file
import UIKit

/// A keeper holds one background task. The observer of willEnterForeground makes a new keeper each time and begins
/// the task on it, so no keeper's identifier is ever replaced; the sync ends it, and so does the expiration handler.
final class TaskKeeper {
    private var taskID: UIBackgroundTaskIdentifier = .invalid

    static func perform(_ work: (TaskKeeper) -> Void) {
        let keeper = TaskKeeper()
        keeper.begin()
        work(keeper)
    }

    func begin() {
        taskID = UIApplication.shared.beginBackgroundTask {
            self.end()
        }
    }

    func end() {
        if taskID != .invalid {
            UIApplication.shared.endBackgroundTask(taskID)
        }
        taskID = .invalid
    }
}

final class ResubscribeCoordinator: NSObject {
    override init() {
        super.init()
        NotificationCenter.default.addObserver(
            self, selector: #selector(appWillEnterForeground), name: UIApplication.willEnterForegroundNotification,
            object: nil)
    }

    @objc private func appWillEnterForeground() {
        TaskKeeper.perform { keeper in
            Subscriptions.refresh { keeper.end() }
        }
    }
}

enum Subscriptions {
    static func refresh(_ done: @escaping () -> Void) { done() }
}
