// swift-format-ignore-file
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {
    // The async form returns its result: there is no completion handler to call.
    func application(
        _ application: UIApplication,
        didReceiveRemoteNotification userInfo: [AnyHashable: Any]
    ) async -> UIBackgroundFetchResult {
        guard let id = userInfo["log-id"] as? String else { return .noData }
        do {
            return try await LogSync.shared.pull(id) ? .newData : .noData
        } catch {
            return .failed
        }
    }
}
