// swift-format-ignore-file
import UIKit

/// The parser is handed the completion handler only to answer a payload it cannot read; for one it reads, it
/// returns the update, and the callback calls the completion handler once the update it maps is applied.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        let update = parseUpdate(userInfo, completionHandler)
        update.map { readable in
            LedgerStore.shared.apply(readable) { applied in
                completionHandler(applied ? .newData : .noData)
            }
        }
    }

    private func parseUpdate(
        _ userInfo: [AnyHashable: Any], _ completionHandler: (UIBackgroundFetchResult) -> Void
    ) -> LedgerUpdate? {
        guard let body = userInfo["ledger"] as? String, let data = body.data(using: .utf8) else {
            completionHandler(.failed)
            return nil
        }
        return LedgerUpdate(data)
    }
}
