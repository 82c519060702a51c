// swift-format-ignore-file
import UIKit

/// A push that comes while another is pending first finishes the pending one; a request object made for each push
/// keeps its own handler.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    private var pendingFetchCompletion: ((UIBackgroundFetchResult) -> Void)?

    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        if userInfo["kind"] as? String == "refresh" {
            RefreshRequest(completionHandler: completionHandler).start()
            return
        }
        pendingFetchCompletion?(.noData)
        pendingFetchCompletion = completionHandler
        SyncEngine.shared.sync { changed in
            self.pendingFetchCompletion?(changed ? .newData : .noData)
            self.pendingFetchCompletion = nil
        }
    }
}

final class RefreshRequest {
    private let completionHandler: (UIBackgroundFetchResult) -> Void

    init(completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        self.completionHandler = completionHandler
    }

    func start() {
        FeedClient.shared.refresh { self.completionHandler($0 ? .newData : .failed) }
    }
}
