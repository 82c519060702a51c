// swift-format-ignore-file
import UIKit

/// Every state the SDK knows completes the push; `@unknown default` is there only for a state a later SDK may add.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        switch application.applicationState {
        case .active:
            completionHandler(.noData)
        case .inactive:
            completionHandler(.noData)
        case .background:
            Inbox.shared.refresh { changed in completionHandler(changed ? .newData : .noData) }
        @unknown default:
            break
        }
    }
}

final class Inbox {
    static let shared = Inbox()
    func refresh(_ done: @escaping (Bool) -> Void) { done(false) }
}
