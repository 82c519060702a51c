// swift-format-ignore-file
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        guard let id = userInfo["log-id"] as? String else { return } // expect: silent-push-completion-not-called
        LogSync.shared.pull(id) { changed in
            completionHandler(changed ? .newData : .noData)
        }
    }
}
