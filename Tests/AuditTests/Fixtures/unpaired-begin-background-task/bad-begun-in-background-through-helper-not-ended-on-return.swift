// swift-format-ignore-file
import UIKit

/// The move to the background holds time through a helper, but nothing ends the task when the app comes back: the
/// next move to the background replaces the identifier of a task that may still be running.
final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    private var exportTime: UIBackgroundTaskIdentifier = .invalid

    func sceneDidEnterBackground(_ scene: UIScene) {
        holdTime()
        Exporter.shared.export { self.releaseTime() }
    }

    func sceneWillEnterForeground(_ scene: UIScene) {
        Exporter.shared.refreshBadge()
    }

    private func holdTime() {
        exportTime = UIApplication.shared.beginBackgroundTask(withName: "export") { // expect: unpaired-begin-background-task
            self.releaseTime()
        }
    }

    private func releaseTime() {
        UIApplication.shared.endBackgroundTask(exportTime)
        exportTime = .invalid
    }
}
