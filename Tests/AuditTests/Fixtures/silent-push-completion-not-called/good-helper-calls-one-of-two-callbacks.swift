// swift-format-ignore-file
import UIKit

/// The helper calls its success callback or its error callback on every path, and the push gives it a closure
/// calling the completion handler for each.
final class MessagesAPI {
    static let shared = MessagesAPI()

    func fetchMessages(page: Int, callback: @escaping ([String]) -> Void, errorCallback: @escaping () -> Void) {
        guard let request = URL(string: "https://example.com/messages?page=\\(page)").map({ URLRequest(url: $0) }) else {
            errorCallback()
            return
        }
        URLSession.shared.dataTask(with: request) { data, _, error in
            guard error == nil, let data else {
                errorCallback()
                return
            }
            callback(String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
        }.resume()
    }
}

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        MessagesAPI.shared.fetchMessages(
            page: 1,
            callback: { messages in completionHandler(messages.isEmpty ? .noData : .newData) },
            errorCallback: { completionHandler(.failed) })
    }
}
