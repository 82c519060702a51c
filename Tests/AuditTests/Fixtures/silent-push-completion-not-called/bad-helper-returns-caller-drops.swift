// swift-format-ignore-file
import UIKit

/// The parser returns what it read, but the callback only acts on one kind of update: for the other, neither the
/// parser nor the callback calls the completion handler.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        let update = parseUpdate(userInfo, completionHandler)
        if update?.isBalance == true {
            LedgerStore.shared.apply(update) { applied in
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
        return LedgerUpdate(data) // expect: silent-push-completion-not-called
    }
}
