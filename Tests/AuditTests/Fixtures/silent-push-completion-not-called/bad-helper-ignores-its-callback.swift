// swift-format-ignore-file
import UIKit

/// The helper declares a completion closure but never calls it (its call was commented out), so the closure that
/// would call the silent push's completion handler never runs.
final class LocationAPI {
    func sendLocation(completion: @escaping (Bool) -> Void) { // expect: silent-push-completion-not-called
        var request = URLRequest(url: URL(string: "https://example.com/location")!)
        request.httpMethod = "POST"
        URLSession.shared.dataTask(with: request) { _, _, _ in
            print("location sent")
        }.resume()
    }
}

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        LocationAPI().sendLocation { ok in
            completionHandler(ok ? .newData : .failed)
        }
    }
}
