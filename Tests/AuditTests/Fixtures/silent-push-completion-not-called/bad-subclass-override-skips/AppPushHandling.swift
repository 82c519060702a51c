// swift-format-ignore-file
import UIKit

/// The override forgets the completion for pushes that are not silent.
final class AppPushHandling: PushHandling {
    override func refresh(silent isSilent: Bool, completion: ((UIBackgroundFetchResult) -> Void)?) {
        guard isSilent else { return }
        completion?(.newData)
    }
}

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any], fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) { // expect: silent-push-completion-not-called
        PushCenter.shared.handling.handle(userInfo, completion: completionHandler)
    }
}
