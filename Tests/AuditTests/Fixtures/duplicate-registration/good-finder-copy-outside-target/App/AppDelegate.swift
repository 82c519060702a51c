// swift-format-ignore-file
import UIKit

/// The project's one sync manager registers its task at launch; a Finder copy of it beside it (`SyncManager 2.swift`),
/// which no target compiles, is never built and registers nothing.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        SyncManager.shared.register()
        SyncManager.shared.schedule()
        return true
    }
}
