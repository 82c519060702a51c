// swift-format-ignore-file
import UIKit

/// The completion handler is handed to a service the app delegate makes with itself, never `nil`; and where the
/// service is optional, the delegate calls the handler itself when it is missing.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    let inbox = InboxService()
    var archive: InboxService?

    func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any], fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        if userInfo["archive"] != nil {
            guard let archive else {
                completionHandler(.noData)
                return
            }
            archive.process(userInfo, completion: completionHandler)
            return
        }
        inbox.process(userInfo, completion: completionHandler)
    }
}

final class InboxService {
    func process(_ userInfo: [AnyHashable: Any], completion: @escaping (UIBackgroundFetchResult) -> Void) {
        DispatchQueue.global().async { completion(.newData) }
    }
}
