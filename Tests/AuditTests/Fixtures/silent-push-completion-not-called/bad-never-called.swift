// swift-format-ignore-file
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application( // expect: silent-push-completion-not-called
        _ application: UIApplication,
        didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        guard let conversation = userInfo["conversation"] as? String else { return }
        MessageStore.shared.fetch(conversation: conversation)
    }
}
