// swift-format-ignore-file
import UIKit

/// The closure that ends the task is its expiration handler and is also given back to the caller, who calls it when
/// the flush is done.
final class EventUploader {
    typealias Finish = () -> Void

    func beginFlushTime(_ application: UIApplication) -> Finish {
        var taskID: UIBackgroundTaskIdentifier = .invalid
        let finish = {
            guard taskID != .invalid else { return }
            application.endBackgroundTask(taskID)
            taskID = .invalid
        }
        taskID = application.beginBackgroundTask(withName: "flush events", expirationHandler: finish)
        return finish
    }

    func flush(_ application: UIApplication) {
        let done = beginFlushTime(application)
        EventQueue.shared.send { _ in done() }
    }
}
