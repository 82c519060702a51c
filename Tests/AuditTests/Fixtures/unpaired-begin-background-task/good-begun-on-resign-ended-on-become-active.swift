// swift-format-ignore-file
import UIKit

/// A task begun each time the app resigns active and ended when it becomes active again: it cannot resign active
/// twice without becoming active between, so no task is held when the next one begins.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    private var pauseTask = UIBackgroundTaskIdentifier.invalid

    func applicationWillResignActive(_ application: UIApplication) {
        pauseTask = application.beginBackgroundTask {
            application.endBackgroundTask(self.pauseTask)
            self.pauseTask = .invalid
        }
        Recorder.shared.pause()
    }

    func applicationDidBecomeActive(_ application: UIApplication) {
        application.endBackgroundTask(pauseTask)
        pauseTask = .invalid
    }
}
