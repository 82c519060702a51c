// swift-format-ignore-file
import UIKit

/// `for:` and `in:` here are argument labels, not a loop: the closure passed with them calls the completion handler.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        if let room = userInfo["room"] as? String {
            MessageStore.shared.fetchUnread(for: room, in: .background) { count in
                completionHandler(count > 0 ? .newData : .noData)
            }
            return
        }
        completionHandler(.noData)
    }
}
