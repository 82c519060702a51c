// swift-format-ignore-file
import UIKit

/// The silent push's completion handler is called from the callback handed to the inbox, but the inbox calls that
/// callback only when a fetch is due: otherwise it returns without calling it, and the handler is never called.
enum Inbox {
    static var lastFetch = Date.distantPast

    static func fetchIfDue(completion: @escaping (Bool) -> Void) {
        if Date().timeIntervalSince(lastFetch) > 3600 { // expect: silent-push-completion-not-called
            lastFetch = Date()
            Server.fetchMessages { completion($0) }
        }
    }
}

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        Inbox.fetchIfDue { gotMessages in
            completionHandler(gotMessages ? .newData : .noData)
        }
    }
}
