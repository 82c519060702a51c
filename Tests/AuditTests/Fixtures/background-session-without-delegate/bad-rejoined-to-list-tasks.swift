// swift-format-ignore-file
import UIKit

/// The session is rejoined when iOS relaunches the app for its events, but without a delegate: listing its tasks
/// delivers none of those events, which go only to a delegate.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var pendingEvents: (() -> Void)?

    func application(
        _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
    ) {
        pendingEvents = completionHandler
        let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
        let session = URLSession(configuration: configuration) // expect: background-session-without-delegate
        session.getTasksWithCompletionHandler { _, uploads, _ in
            print("uploads still running: \(uploads.count)")
        }
    }
}
