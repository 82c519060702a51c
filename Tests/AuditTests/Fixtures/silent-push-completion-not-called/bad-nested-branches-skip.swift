// swift-format-ignore-file
import UIKit

/// Two ways through this callback never call the completion handler: a silent message the inbox cannot parse, and
/// an expired one, which no branch takes.
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
            if let message = Inbox.message(from: userInfo) { // expect: silent-push-completion-not-called
                Inbox.showLocally(message) {
                    Inbox.deliver(userInfo, completionHandler: completionHandler)
                }
            }
        } else if !isExpired { // expect: silent-push-completion-not-called
            Inbox.deliver(userInfo, completionHandler: completionHandler)
        }
    }
}
