// swift-format-ignore-file
import Foundation
import UIKit

protocol UploadTimeCoordinator {
    func beginBackgroundTask()
    func endBackgroundTask()
}

/// Its own `beginBackgroundTask()` calls UIKit's and drops what it returns: nothing can end that task.
final class AppUploadTimeCoordinator: UploadTimeCoordinator {
    func beginBackgroundTask() {
        UIApplication.shared.beginBackgroundTask(withName: "uploads") { // expect: unpaired-begin-background-task
            Transport.cancelAll()
        }
    }

    func endBackgroundTask() {}
}

final class ExtensionUploadTimeCoordinator: UploadTimeCoordinator {
    private var activity: NSObjectProtocol?

    func beginBackgroundTask() {
        activity = ProcessInfo.processInfo.beginActivity(options: .background, reason: "uploads")
    }

    func endBackgroundTask() {
        if let activity { ProcessInfo.processInfo.endActivity(activity) }
        activity = nil
    }
}
