// swift-format-ignore-file
import UIKit

/// The sync manager and a legacy one the committed project does not list both register the same identifier.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        SyncManager.shared.register()
        LegacySync().register()
        SyncManager.shared.schedule()
        return true
    }
}
