// swift-format-ignore-file
import UIKit

/// On entering the background the app begins a task and trims its cache on another queue before ending it: the
/// expiration handler ends the task without marking it, and the trim's end comes after, ending it a second time.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func applicationDidEnterBackground(_ application: UIApplication) {
        var taskID = UIBackgroundTaskIdentifier.invalid
        taskID = application.beginBackgroundTask { // expect: unpaired-begin-background-task
            application.endBackgroundTask(taskID)
        }
        DispatchQueue.global().async {
            ImageCache.shared.trim(toMegabytes: 50)
            application.endBackgroundTask(taskID)
        }
    }
}
