// swift-format-ignore-file
import UIKit

/// A task begun each time the app resigns active but ended only when it enters the foreground: pulling down the
/// notification centre resigns active and becomes active again without entering the foreground, so the next
/// resign begins a second task over the first, which is never ended.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    private var pauseTask = UIBackgroundTaskIdentifier.invalid

    func applicationWillResignActive(_ application: UIApplication) {
        pauseTask = application.beginBackgroundTask { // expect: unpaired-begin-background-task
            application.endBackgroundTask(self.pauseTask)
            self.pauseTask = .invalid
        }
        Recorder.shared.pause()
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        application.endBackgroundTask(pauseTask)
        pauseTask = .invalid
    }
}
