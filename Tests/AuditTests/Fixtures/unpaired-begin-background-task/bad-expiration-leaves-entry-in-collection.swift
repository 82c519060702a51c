// swift-format-ignore-file
import UIKit

/// The expiration handler ends the task but leaves its entry, so `finish` ends the same identifier again.
final class ExportJobs {
    private var running: [String: UIBackgroundTaskIdentifier] = [:]

    func start(_ job: String) {
        var identifier = UIBackgroundTaskIdentifier.invalid
        identifier = UIApplication.shared.beginBackgroundTask(withName: job) { // expect: unpaired-begin-background-task
            UIApplication.shared.endBackgroundTask(identifier)
        }
        running[job] = identifier
    }

    func finish(_ job: String) {
        guard let identifier = running[job] else { return }
        UIApplication.shared.endBackgroundTask(identifier)
        running[job] = nil
    }
}
