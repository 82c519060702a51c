// swift-format-ignore-file
import CloudKit
import UIKit

/// A sync library's entry point, which its README tells the app delegate to call with the silent push and its
/// completion handler. A push that is no CloudKit notification, and the kinds it does not handle yet, leave without
/// calling the completion handler.
public final class ZoneSync {
    public static let shared = ZoneSync()

    public func handleRemoteNotification(_ userInfo: [AnyHashable: Any], fetchCompletionHandler completion: @escaping (UIBackgroundFetchResult) -> Void) {
        guard let note = CKNotification(fromRemoteNotificationDictionary: userInfo) else {
            return // expect: silent-push-completion-not-called
        }
        switch note.notificationType {
        case .database:
            fetchChanges { changed in completion(changed ? .newData : .noData) }
        case .query:
            completion(.noData)
        default: // expect: silent-push-completion-not-called
            break
        }
    }

    func fetchChanges(_ done: @escaping (Bool) -> Void) { done(false) }
}
