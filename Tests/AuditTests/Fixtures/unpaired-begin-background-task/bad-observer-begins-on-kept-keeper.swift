// swift-format-ignore-file
import UIKit

/// One keeper, kept by the coordinator, is begun again on every willEnterForeground: a second change of state
/// replaces the identifier of a task the first may still hold, and that task is never ended.
final class TaskKeeper {
    private var taskID: UIBackgroundTaskIdentifier = .invalid

    func begin() {
        taskID = UIApplication.shared.beginBackgroundTask { // expect: unpaired-begin-background-task
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
    private let keeper = TaskKeeper()

    override init() {
        super.init()
        NotificationCenter.default.addObserver(
            self, selector: #selector(appWillEnterForeground), name: UIApplication.willEnterForegroundNotification,
            object: nil)
    }

    @objc private func appWillEnterForeground() {
        keeper.begin()
        Subscriptions.refresh { self.keeper.end() }
    }
}

enum Subscriptions {
    static func refresh(_ done: @escaping () -> Void) { done() }
}
