// swift-format-ignore-file
import UIKit

enum PushKind: String { case settings, entries, unknown }

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        switch PushKind(rawValue: userInfo["kind"] as? String ?? "") ?? .unknown {
        case .settings:
            Settings.shared.reload()
            completionHandler(.newData)
        case .entries:
            Entries.shared.sync { completionHandler($0 ? .newData : .failed) }
        case .unknown: // expect: silent-push-completion-not-called
            print("ignoring push")
        }
    }
}
