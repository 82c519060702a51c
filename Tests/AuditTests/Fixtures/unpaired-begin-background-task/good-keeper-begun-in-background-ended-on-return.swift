// swift-format-ignore-file
import UIKit

/// A keeper of background time, started by the app delegate when the app moves to the background and stopped when it
/// comes back: the return comes before the next move, so the keeper holds no task when it starts again.
final class TimeKeeper {
    private var identifier = UIBackgroundTaskIdentifier.invalid

    func start(onExpiry: (() -> Void)? = nil) {
        identifier = UIApplication.shared.beginBackgroundTask {
            onExpiry?()
            self.stop()
        }
    }

    func stop() {
        guard identifier != .invalid else { return }
        let held = identifier
        identifier = .invalid
        UIApplication.shared.endBackgroundTask(held)
    }
}

final class AppDelegate: UIResponder, UIApplicationDelegate {
    let keeper = TimeKeeper()

    func applicationDidEnterBackground(_ application: UIApplication) {
        keeper.start { Metrics.record("background-time-expired") }
        Uploads.shared.resume()
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        keeper.stop()
    }
}
