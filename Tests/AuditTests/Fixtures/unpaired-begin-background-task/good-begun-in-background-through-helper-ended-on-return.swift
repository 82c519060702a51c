// swift-format-ignore-file
import UIKit

/// The move to the background holds time through a helper of the app delegate; the return to the foreground, which
/// comes before the next move to the background, releases it through another, so no task is held when the next one
/// begins.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    private var syncTime: UIBackgroundTaskIdentifier = .invalid

    func applicationDidEnterBackground(_ application: UIApplication) {
        holdTime()
        Journal.shared.flush()
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        releaseTime()
    }

    private func holdTime() {
        syncTime = UIApplication.shared.beginBackgroundTask(withName: "journal-flush") {
            self.releaseTime()
        }
    }

    private func releaseTime() {
        UIApplication.shared.endBackgroundTask(syncTime)
        syncTime = .invalid
    }
}
