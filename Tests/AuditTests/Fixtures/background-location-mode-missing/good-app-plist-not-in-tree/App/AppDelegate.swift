// swift-format-ignore-file
import UIKit

// The app's own Info.plist is not in the tree (the repository ignores `*.plist` but the test bundle's): its background
// modes cannot be read, so nothing here is known to be missing.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        TripRecorder.shared.start()
        return true
    }
}
