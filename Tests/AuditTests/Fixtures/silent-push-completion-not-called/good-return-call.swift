// swift-format-ignore-file
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {
    var pendingFetch: ((UIBackgroundFetchResult) -> Void)?

    func application(
        _ application: UIApplication,
        didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        guard userInfo["aps"] != nil else { return completionHandler(.noData) }
        if userInfo["defer"] != nil {
            // Kept and called by the sync engine's delegate when it finishes (a push still pending is finished first).
            pendingFetch?(.noData)
            pendingFetch = completionHandler
            SyncEngine.shared.start()
            return
        }
        completionHandler(.newData)
    }
}
