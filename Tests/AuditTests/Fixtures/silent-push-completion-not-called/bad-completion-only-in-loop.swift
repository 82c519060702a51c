// swift-format-ignore-file
import UIKit

/// The completion handler is called once per room, inside a loop: with no rooms in the payload it is never called.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) { // expect: silent-push-completion-not-called
        let rooms = userInfo["rooms"] as? [String] ?? []
        for room in rooms {
            MessageStore.shared.fetchUnread(for: room, in: .background) { count in
                completionHandler(count > 0 ? .newData : .noData)
            }
        }
    }
}
