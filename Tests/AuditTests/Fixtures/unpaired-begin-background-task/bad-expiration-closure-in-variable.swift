// swift-format-ignore-file
import UIKit

final class BackgroundWork {
    private var identifier: UIBackgroundTaskIdentifier = .invalid
    private(set) var expired = false

    static func begin(named name: String, onExpiry: ((BackgroundWork) -> Void)? = nil) -> BackgroundWork {
        let work = BackgroundWork()
        // The handler marks the work expired and tells the caller, but nothing ends the task.
        let expire = {
            work.expired = true
            onExpiry?(work)
        }
        work.identifier = UIApplication.shared.beginBackgroundTask(withName: name, expirationHandler: expire) // expect: unpaired-begin-background-task
        return work
    }

    func end() {
        guard identifier != .invalid else { return }
        UIApplication.shared.endBackgroundTask(identifier)
        identifier = .invalid
    }
}
