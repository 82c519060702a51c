// swift-format-ignore-file
import UIKit

final class SyncCoordinator {
    private var backgroundTask: UIBackgroundTaskIdentifier = .invalid

    func sceneDidEnterBackground() {
        backgroundTask = UIApplication.shared.beginBackgroundTask(withName: "sync") { [weak self] in // expect: unpaired-begin-background-task
            self?.stopSync()
        }
        SyncEngine.shared.push { [weak self] _ in self?.finish() }
    }

    private func stopSync() {
        SyncEngine.shared.cancel()
    }

    private func finish() {
        UIApplication.shared.endBackgroundTask(backgroundTask)
        backgroundTask = .invalid
    }
}
