// swift-format-ignore-file
import UIKit

/// Every branch, the unparsable and the expired message included, calls the completion handler.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        guard Inbox.isOurs(userInfo) else {
            completionHandler(.noData)
            return
        }
        let isSilent = userInfo["silent"] != nil
        let isExpired = (userInfo["expires"] as? Double ?? .infinity) < Date().timeIntervalSince1970
        if isSilent && !isExpired {
            if let message = Inbox.message(from: userInfo) {
                Inbox.showLocally(message) {
                    Inbox.deliver(userInfo, completionHandler: completionHandler)
                }
            } else {
                completionHandler(.failed)
            }
        } else if !isExpired {
            Inbox.deliver(userInfo, completionHandler: completionHandler)
        } else {
            completionHandler(.noData)
        }
    }
}
