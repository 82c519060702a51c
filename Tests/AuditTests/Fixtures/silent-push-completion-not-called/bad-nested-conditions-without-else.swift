// swift-format-ignore-file
import UIKit

/// Two conditions nested, neither with an `else`: a push without an `aps` dictionary skips the outer one, one
/// without `content-available` the inner one, and iOS waits for a completion that never comes on both.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        if let aps = userInfo["aps"] as? [String: Any] { // expect: silent-push-completion-not-called
            if aps["content-available"] as? Int == 1 { // expect: silent-push-completion-not-called
                let changed = Mailbox.shared.refresh()
                completionHandler(changed ? .newData : .noData)
            }
        }
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
