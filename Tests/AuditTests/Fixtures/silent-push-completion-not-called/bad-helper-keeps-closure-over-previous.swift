// swift-format-ignore-file
import UIKit

/// The plugin keeps one closure that finishes the current push, set anew for each push without finishing the one it
/// replaces: two pushes close together leave the first one's completion handler uncalled.
final class NotificationPlugin {
    static let shared = NotificationPlugin()
    private var onFinish: ((Bool) -> Void)?

    func handle(_ userInfo: [AnyHashable: Any], _ completion: @escaping (Bool) -> Void) {
        onFinish = { hasData in // expect: silent-push-completion-not-called
            completion(hasData)
        }
        DartChannel.shared.invoke("onPush", userInfo)
    }

    func finishedByDart(hasData: Bool) {
        onFinish?(hasData)
        onFinish = nil
    }
}

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        NotificationPlugin.shared.handle(userInfo) { hasData in
            completionHandler(hasData ? .newData : .noData)
        }
    }
}
