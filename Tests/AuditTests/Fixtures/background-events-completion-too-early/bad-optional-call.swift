// swift-format-ignore-file
import UIKit

final class SceneAppDelegate: NSObject, UIApplicationDelegate {
    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String, completionHandler: (() -> Void)?) {
        Transfers.shared.attach(identifier)
        completionHandler?() // expect: background-events-completion-too-early
    }
}
