// swift-format-ignore-file
import UIKit

/// Each push keeps its completion handler in one property and starts a sync that calls it when done: a push that
/// comes while the sync still runs replaces the first push's handler, which is never called.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    private var pendingFetchCompletion: ((UIBackgroundFetchResult) -> Void)?

    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        pendingFetchCompletion = completionHandler // expect: silent-push-completion-not-called
        SyncEngine.shared.sync { changed in
            self.pendingFetchCompletion?(changed ? .newData : .noData)
            self.pendingFetchCompletion = nil
        }
    }
}
