// swift-format-ignore-file
import UIKit

final class SyncCoordinator {
    private var backgroundTask: UIBackgroundTaskIdentifier = .invalid

    func sceneDidEnterBackground() {
        // A task still running from the last trip to the background is ended before a new one begins.
        endBackgroundTaskIfNeeded()
        backgroundTask = UIApplication.shared.beginBackgroundTask(withName: "sync") { [weak self] in
            SyncEngine.shared.cancel()
            self?.endBackgroundTaskIfNeeded()
        }
        SyncEngine.shared.push { [weak self] _ in self?.endBackgroundTaskIfNeeded() }
    }

    private func endBackgroundTaskIfNeeded() {
        guard backgroundTask != .invalid else { return }
        UIApplication.shared.endBackgroundTask(backgroundTask)
        backgroundTask = .invalid
    }
}
