// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The delegate's `scheduleRefresh()` asks its `refresher` (typed `Refresher`) for the first request: the call
/// `self.refresher.scheduleRefresh()` is that type's method of the same name, which submits, not a call back into the
/// delegate's own.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    let refresher: Refresher = Refresher()

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        refresher.register()
        scheduleRefresh()
        return true
    }

    func scheduleRefresh() {
        self.refresher.scheduleRefresh()
    }
}
