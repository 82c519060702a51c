// swift-format-ignore-file
import UIKit

/// The app delegate hands each silent push to a closure the sync service installs at launch; that closure calls the
/// completion handler on every path, also when it has no account.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var onSilentPush: ([AnyHashable: Any], @escaping (UIBackgroundFetchResult) -> Void) -> Void = { _, done in done(.noData) }
    let sync = SyncService()

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let sync = self.sync
        onSilentPush = { userInfo, done in
            guard let account = sync.account else { return done(.noData) }
            sync.pull(account) { done($0 ? .newData : .failed) }
        }
        return true
    }

    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        onSilentPush(userInfo, completionHandler)
    }
}

final class SyncService {
    var account: String?

    func pull(_ account: String, completion: @escaping (Bool) -> Void) {
        URLSession.shared.dataTask(with: URL(string: "https://example.com/\(account)")!) { _, _, error in
            completion(error == nil)
        }.resume()
    }
}
