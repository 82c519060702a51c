// swift-format-ignore-file
import UIKit

final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    private var flushTask: UIBackgroundTaskIdentifier = .invalid

    func sceneDidEnterBackground(_ scene: UIScene) {
        // A second trip to the background replaces the identifier of a task that may still be running.
        flushTask = UIApplication.shared.beginBackgroundTask(withName: "flush") { // expect: unpaired-begin-background-task
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
