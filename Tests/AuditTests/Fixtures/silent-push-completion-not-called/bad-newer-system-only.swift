// swift-format-ignore-file
import UIKit

/// Only iOS 17 and later fetch: on older systems the completion handler is never called.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any], fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        if #available(iOS 17.0, *) { // expect: silent-push-completion-not-called
            Task {
                completionHandler(.newData)
            }
        }
    }
}
