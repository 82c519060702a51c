// swift-format-ignore-file
import UIKit

/// Each time the app resigns active it ends the task held from the time before and begins a new one, which no
/// work ends: the app holds it until it resigns again or its time runs out.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    private var keepAlive: UIBackgroundTaskIdentifier = .invalid

    func applicationWillResignActive(_ application: UIApplication) {
        if keepAlive != .invalid {
            application.endBackgroundTask(keepAlive)
            keepAlive = .invalid
        }
        keepAlive = application.beginBackgroundTask(withName: "keep-alive") { // expect: unpaired-begin-background-task
            application.endBackgroundTask(self.keepAlive)
            self.keepAlive = .invalid
        }
    }
}
