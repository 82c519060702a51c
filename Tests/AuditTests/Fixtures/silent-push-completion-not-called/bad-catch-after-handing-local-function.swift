// swift-format-ignore-file
import UIKit

enum InboxError: Error {
    case notOurs
}

final class PushInbox {
    static let shared = PushInbox()

    func receive(_ userInfo: [AnyHashable: Any], completion: @escaping () -> Void) throws {
        guard userInfo["inbox"] != nil else { throw InboxError.notOurs }
        completion()
    }
}

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    // The local function completes the push; the inbox calls it unless it throws, and the `catch` only logs.
    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        func finish() {
            completionHandler(.newData)
        }
        do {
            try PushInbox.shared.receive(userInfo, completion: finish)
        } catch { // expect: silent-push-completion-not-called
            print("not an inbox push")
        }
    }
}
