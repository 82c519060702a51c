// swift-format-ignore-file
import CloudKit
import UIKit

/// The fetch retries itself on an expired token, passing the closure on; on any other error it returns without
/// calling it, and the silent push's completion handler is never called.
final class ChangeFetcher {
    static let shared = ChangeFetcher()

    func fetchChanges(in database: CKDatabase, completion: (() -> Void)?) {
        let operation = CKFetchDatabaseChangesOperation(previousServerChangeToken: TokenStore.token)
        operation.fetchDatabaseChangesResultBlock = { result in
            switch result {
            case .failure(let error as CKError) where error.code == .changeTokenExpired:
                TokenStore.token = nil
                self.fetchChanges(in: database, completion: completion)
            case .failure:
                return // expect: silent-push-completion-not-called
            case .success:
                completion?()
            }
        }
        database.add(operation)
    }
}

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        ChangeFetcher.shared.fetchChanges(in: CKContainer.default().privateCloudDatabase) {
            completionHandler(.newData)
        }
    }
}
