// swift-format-ignore-file
import UIKit

final class SyncCoordinator {
    private var backgroundTask: UIBackgroundTaskIdentifier = .invalid

    func sceneDidEnterBackground() {
        backgroundTask = UIApplication.shared.beginBackgroundTask(withName: "sync") { [weak self] in // expect: unpaired-begin-background-task
            self?.cancelSync()
        }
        SyncEngine.shared.push()
    }

    private func cancelSync() {
        SyncEngine.shared.cancel()
    }
}
