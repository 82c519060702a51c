// swift-format-ignore-file
import UIKit

final class AppPushHandling: PushHandling {
    override func refresh(silent isSilent: Bool, completion: ((UIBackgroundFetchResult) -> Void)?) {
        guard isSilent else {
            if let completion = completion {
                completion(.noData)
            }
            return
        }
        DispatchQueue.global().async {
            if let completion = completion {
                completion(.newData)
            }
        }
    }
}

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        PushCenter.shared.handling = AppPushHandling()
        return true
    }

    func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any], fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        PushCenter.shared.handling.handle(userInfo, completion: completionHandler)
    }
}
