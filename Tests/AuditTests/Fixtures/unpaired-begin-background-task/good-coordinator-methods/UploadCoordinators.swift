// swift-format-ignore-file
import Foundation
import UIKit

/// The uploader's own `beginBackgroundTask()`, one per kind of process: its callers are not UIKit's callers.
protocol UploadTimeCoordinator {
    func beginBackgroundTask()
    func endBackgroundTask()
}

final class AppUploadTimeCoordinator: UploadTimeCoordinator {
    private var current: UIBackgroundTaskIdentifier = .invalid

    func beginBackgroundTask() {
        endBackgroundTask()
        current = UIApplication.shared.beginBackgroundTask(withName: "uploads") { [weak self] in
            self?.endBackgroundTask()
        }
    }

    func endBackgroundTask() {
        guard current != .invalid else { return }
        UIApplication.shared.endBackgroundTask(current)
        current = .invalid
    }
}

final class ExtensionUploadTimeCoordinator: UploadTimeCoordinator {
    private var activity: NSObjectProtocol?

    func beginBackgroundTask() {
        endBackgroundTask()
        activity = ProcessInfo.processInfo.beginActivity(options: .background, reason: "uploads")
    }

    func endBackgroundTask() {
        if let activity { ProcessInfo.processInfo.endActivity(activity) }
        activity = nil
    }
}
