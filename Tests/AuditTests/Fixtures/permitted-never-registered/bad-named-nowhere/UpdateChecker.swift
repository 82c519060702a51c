// swift-format-ignore-file
import BackgroundTasks
import Foundation

/// Scheduled from Swift; its launch handler is registered by the Objective-C app delegate, which the audit does not
/// parse but where the identifier is named.
@objc final class UpdateChecker: NSObject {
    @objc static let shared = UpdateChecker()

    @objc func run(task: BGTask) {
        schedule()
        task.expirationHandler = { Maps.cancelCheck() }
        Maps.checkForUpdates { task.setTaskCompleted(success: $0) }
    }

    @objc func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.maps.sync-updates"))
    }
}
