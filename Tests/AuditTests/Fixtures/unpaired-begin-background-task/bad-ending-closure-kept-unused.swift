// swift-format-ignore-file
import UIKit

/// The closure that would end the task is only the expiration handler: the flush neither calls it nor hands it on.
final class EventUploader {
    func flush(_ application: UIApplication) {
        var taskID: UIBackgroundTaskIdentifier = .invalid
        let finish = {
            application.endBackgroundTask(taskID)
            taskID = .invalid
        }
        taskID = application.beginBackgroundTask(withName: "flush events", expirationHandler: finish) // expect: unpaired-begin-background-task
        EventQueue.shared.send { sent in
            print("sent \(sent) events")
        }
    }
}
