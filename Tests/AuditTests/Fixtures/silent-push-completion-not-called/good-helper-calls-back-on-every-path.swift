// swift-format-ignore-file
import UIKit

/// The inbox calls the callback on both paths: with the fetch's result when one is due, at once with `false` when
/// it is not; the silent push's completion handler is always called.
enum Inbox {
    static var lastFetch = Date.distantPast

    static func fetchIfDue(completion: @escaping (Bool) -> Void) {
        if Date().timeIntervalSince(lastFetch) > 3600 {
            lastFetch = Date()
            Server.fetchMessages { completion($0) }
        } else {
            completion(false)
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
