// swift-format-ignore-file
import UIKit

/// Each move to the background begins a task to finish saving; the scene's return to the foreground, which comes
/// before the next move to the background, ends it (as does its expiration handler), so none is held when the next
/// one begins.
final class SceneDelegate: NSObject, UIWindowSceneDelegate {
    private var saveTask: UIBackgroundTaskIdentifier = .invalid

    func sceneDidEnterBackground(_ scene: UIScene) {
        Drafts.shared.saveAll()
        saveTask = UIApplication.shared.beginBackgroundTask(withName: "save-drafts") {
            UIApplication.shared.endBackgroundTask(self.saveTask)
            self.saveTask = .invalid
        }
    }

    func sceneWillEnterForeground(_ scene: UIScene) {
        if saveTask != .invalid {
            UIApplication.shared.endBackgroundTask(saveTask)
            saveTask = .invalid
        }
    }
}
