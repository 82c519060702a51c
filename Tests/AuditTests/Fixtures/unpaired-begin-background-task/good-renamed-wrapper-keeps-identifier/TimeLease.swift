// swift-format-ignore-file
import UIKit

/// A lease keeps the identifier itself and ends it in `cancel()`; its callers only hand it an expiration handler,
/// which stops the work and cancels the lease.
final class TimeLease {
    private var taskID: UIBackgroundTaskIdentifier = .invalid

    func start(expirationHandler: @escaping () -> Void) {
        taskID = UIApplication.shared.beginBackgroundTask(expirationHandler: expirationHandler)
    }

    func cancel() {
        if taskID != .invalid {
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }
    }
}

final class PhotoImporter {
    private let lease = TimeLease()

    func importAll() {
        lease.start { [weak self] in
            self?.stop()
        }
        Library.importPending { [weak self] in self?.stop() }
    }

    func stop() {
        lease.cancel()
    }
}

enum Library {
    static func importPending(_ done: @escaping () -> Void) { done() }
}
