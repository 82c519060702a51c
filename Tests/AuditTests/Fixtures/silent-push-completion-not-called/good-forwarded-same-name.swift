// swift-format-ignore-file
import UIKit

/// Forwards the push to an older delegate object (outside these sources) that implements the same callback.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    let legacy = LegacyAppDelegate()

    func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any], fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        legacy.application(application, didReceiveRemoteNotification: userInfo, fetchCompletionHandler: completionHandler)
    }
}
