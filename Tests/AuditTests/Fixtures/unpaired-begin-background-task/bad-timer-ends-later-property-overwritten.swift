// swift-format-ignore-file
import UIKit

// Each move to the background begins a task into the same property; the timer block that ends it runs ten seconds
// later, after the begin, so going to the background again within them leaves the earlier task unended.
@UIApplicationMain
class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    var bgTask: UIBackgroundTaskIdentifier = .invalid

    func applicationDidEnterBackground(_ application: UIApplication) {
        var count = 0
        _ = Timer.scheduledTimer(withTimeInterval: 1.0, repeats: true) { timer in
            count += 1
            if count >= 10 {
                timer.invalidate()
                self.endBackground()
            }
        }
        bgTask = application.beginBackgroundTask(expirationHandler: { // expect: unpaired-begin-background-task
            self.endBackground()
        })
    }

    func endBackground() {
        UIApplication.shared.endBackgroundTask(bgTask)
        bgTask = .invalid
    }
}
