// swift-format-ignore-file
import UIKit

/// Each task is kept under its job's key. The expiration handler ends it and removes the entry, so `finish` finds
/// nothing left to end: the task is ended once either way.
final class ExportJobs {
    private var running: [String: UIBackgroundTaskIdentifier] = [:]
    private let lock = NSLock()

    func start(_ job: String) {
        var identifier = UIBackgroundTaskIdentifier.invalid
        identifier = UIApplication.shared.beginBackgroundTask(withName: job) {
            UIApplication.shared.endBackgroundTask(identifier)
            self.lock.lock()
            self.running.removeValue(forKey: job)
            self.lock.unlock()
        }
        lock.lock()
        running[job] = identifier
        lock.unlock()
    }

    func finish(_ job: String) {
        lock.lock()
        defer { lock.unlock() }
        guard let identifier = running.removeValue(forKey: job) else { return }
        UIApplication.shared.endBackgroundTask(identifier)
    }
}
