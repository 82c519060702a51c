// swift-format-ignore-file
import UIKit

/// The completion handler is handed on only through an optional property that a view sets once it appears: a push
/// that wakes the app in the background finds it `nil`, the call is skipped, and the handler is never called.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var inbox: InboxService?

    func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any], fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        inbox?.process(userInfo, completion: completionHandler) // expect: silent-push-completion-not-called
    }
}

final class InboxService {
    func process(_ userInfo: [AnyHashable: Any], completion: @escaping (UIBackgroundFetchResult) -> Void) {
        DispatchQueue.global().async { completion(.newData) }
    }
}
