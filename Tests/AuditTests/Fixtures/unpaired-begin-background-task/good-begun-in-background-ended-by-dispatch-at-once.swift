// swift-format-ignore-file
import UIKit

/// The move to the background begins a task and dispatches a block whose first statement ends it: the task is over
/// as soon as the queue runs the block, long before the app can come back and leave again.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    private var settleTask: UIBackgroundTaskIdentifier = .invalid

    func applicationDidEnterBackground(_ application: UIApplication) {
        Journal.shared.closeSegment()
        settleTask = application.beginBackgroundTask(withName: "settle") {
            application.endBackgroundTask(self.settleTask)
            self.settleTask = .invalid
        }
        DispatchQueue.global(qos: .utility).async {
            application.endBackgroundTask(self.settleTask)
            self.settleTask = .invalid
        }
    }
}

final class Journal {
    static let shared = Journal()
    func closeSegment() {}
}
