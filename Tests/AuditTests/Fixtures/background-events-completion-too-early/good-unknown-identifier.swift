// swift-format-ignore-file
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String, completionHandler: @escaping () -> Void) {
        if Uploads.isSession(identifier) {
            Uploads.shared.reconnect(identifier, completionHandler: completionHandler)
        } else {
            // No session of this app has events to deliver: nothing to wait for.
            completionHandler()
        }
    }
}
