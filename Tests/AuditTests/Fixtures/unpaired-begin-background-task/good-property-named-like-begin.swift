// swift-format-ignore-file
import UIKit

/// The identifier is kept in a property named after the call that returns it: reading `self.beginBackgroundTask`
/// begins nothing.
final class TrackRecorder {
    private var beginBackgroundTask = UIBackgroundTaskIdentifier.invalid

    func start() {
        beginBackgroundTask = UIApplication.shared.beginBackgroundTask {
            UIApplication.shared.endBackgroundTask(self.beginBackgroundTask)
            self.beginBackgroundTask = .invalid
        }
    }

    func stop() {
        guard beginBackgroundTask != .invalid else { return }
        UIApplication.shared.endBackgroundTask(self.beginBackgroundTask)
        self.beginBackgroundTask = .invalid
    }
}
