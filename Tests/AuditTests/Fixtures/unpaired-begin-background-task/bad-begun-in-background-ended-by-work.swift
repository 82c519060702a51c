// swift-format-ignore-file
import UIKit

/// Each move to the background begins a task that only the upload's end ends; when the app comes back and leaves
/// again before the upload ends, the new task replaces the one held, which is then never ended.
final class SceneDelegate: NSObject, UIWindowSceneDelegate {
    private var uploadTask: UIBackgroundTaskIdentifier = .invalid

    func sceneDidEnterBackground(_ scene: UIScene) {
        uploadTask = UIApplication.shared.beginBackgroundTask(withName: "upload-drafts") { // expect: unpaired-begin-background-task
            UIApplication.shared.endBackgroundTask(self.uploadTask)
            self.uploadTask = .invalid
        }
        Drafts.shared.upload { _ in
            UIApplication.shared.endBackgroundTask(self.uploadTask)
            self.uploadTask = .invalid
        }
    }

    func sceneWillEnterForeground(_ scene: UIScene) {
        Drafts.shared.refresh()
    }
}
