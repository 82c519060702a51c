// swift-format-ignore-file
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String, completionHandler handler: @escaping () -> Void) {
        guard identifier == Uploads.identifier else {
            handler() // expect: background-events-completion-too-early
            return
        }
        Uploads.shared.resume()
        DispatchQueue.main.async {
            handler() // expect: background-events-completion-too-early
        }
    }
}
