// swift-format-ignore-file
import CloudKit
import UIKit

// A sync library's hook is named like the delegate's callback but answers whether it took the push: on `false` the
// completion handler stays with the app that called the hook. The system never calls a method that returns a value.
public final class SyncEngine {
    public static let shared = SyncEngine()

    public func application(
        _ application: UIApplication, didReceiveRemoteNotification info: [AnyHashable: Any],
        fetchCompletionHandler completion: @escaping (UIBackgroundFetchResult) -> Void
    ) -> Bool {
        guard CKNotification(fromRemoteNotificationDictionary: info) is CKDatabaseNotification else { return false }
        fetchChanges { completion(.newData) }
        return true
    }

    func fetchChanges(_ done: @escaping () -> Void) { done() }
}
