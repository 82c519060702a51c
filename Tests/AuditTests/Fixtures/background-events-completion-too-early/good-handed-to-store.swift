// swift-format-ignore-file
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String, completionHandler: @escaping () -> Void) {
        // The store keeps it and calls it from urlSessionDidFinishEvents(forBackgroundURLSession:).
        DownloadStore.shared.reconnect(identifier, onEventsDelivered: { completionHandler() })
    }

    // "completionHandler()" in a comment or a string is not a call.
    let note = "completionHandler() is called later"
}
