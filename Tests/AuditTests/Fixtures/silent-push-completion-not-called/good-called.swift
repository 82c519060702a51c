// swift-format-ignore-file
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        guard let id = userInfo["log-id"] as? String else {
            completionHandler(.noData)
            return
        }
        LogSync.shared.pull(id) { result in
            switch result {
            case .success(let changed): completionHandler(changed ? .newData : .noData)
            case .failure: completionHandler(.failed)
            }
        }
    }
}
