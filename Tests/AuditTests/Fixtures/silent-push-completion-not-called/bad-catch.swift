// swift-format-ignore-file
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        Task {
            do {
                let changes = try await Sync.shared.pull(userInfo)
                completionHandler(changes.isEmpty ? .noData : .newData)
            } catch { // expect: silent-push-completion-not-called
                Log.error("silent push sync failed: \(error)")
            }
        }
    }
}
