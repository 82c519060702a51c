// swift-format-ignore-file
import UIKit

final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    private var flushTask: UIBackgroundTaskIdentifier = .invalid

    func sceneDidEnterBackground(_ scene: UIScene) {
        guard flushTask == .invalid else { return }
        flushTask = UIApplication.shared.beginBackgroundTask(withName: "flush") {
            UIApplication.shared.endBackgroundTask(self.flushTask)
            self.flushTask = .invalid
        }
        Outbox.flush { self.endFlush() }
    }

    private func endFlush() {
        UIApplication.shared.endBackgroundTask(flushTask)
        flushTask = .invalid
    }
}
