// swift-format-ignore-file
import UIKit

/// Nested conditions without `else`, and the completion handler called once after them: every path calls it.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        var result = UIBackgroundFetchResult.noData
        if let aps = userInfo["aps"] as? [String: Any] {
            if aps["content-available"] as? Int == 1, Mailbox.shared.refresh() {
                result = .newData
            }
        }
        completionHandler(result)
    }
}

final class Mailbox {
    static let shared = Mailbox()
    private var unread = 0

    func refresh() -> Bool {
        unread += 1
        return unread > 0
    }
}
