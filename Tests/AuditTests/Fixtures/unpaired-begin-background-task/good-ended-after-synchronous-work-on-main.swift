// swift-format-ignore-file
import UIKit

/// On entering the background the app begins a task, trims its cache on the main thread and ends the task: the
/// expiration handler, which also runs on the main thread, cannot run before the end, so the task is ended once.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func applicationDidEnterBackground(_ application: UIApplication) {
        var taskID = UIBackgroundTaskIdentifier.invalid
        taskID = application.beginBackgroundTask {
            application.endBackgroundTask(taskID)
        }
        ImageCache.shared.trim(toMegabytes: 50)
        application.endBackgroundTask(taskID)
    }
}
