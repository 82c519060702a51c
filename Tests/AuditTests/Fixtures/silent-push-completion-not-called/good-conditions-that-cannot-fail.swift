// swift-format-ignore-file
import UIKit

/// A literal address always makes a URL, and every system this runs on is iOS 10 or later: neither `else` is a path.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any], fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        guard let feed = URL(string: "https://news.example.com/latest.json") else { return }
        if #available(iOS 10.0, *) {
            URLSession.shared.dataTask(with: feed) { data, _, _ in
                completionHandler(data == nil ? .failed : .newData)
            }.resume()
        }
    }
}
