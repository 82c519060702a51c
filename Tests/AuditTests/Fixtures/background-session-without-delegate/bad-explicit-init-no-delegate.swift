// swift-format-ignore-file
import UIKit

/// The session rejoined for background events is made with an explicit `init` and no delegate: the events it was
/// woken for are delivered to no one.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
    ) {
        let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
        let session = URLSession.init(configuration: configuration) // expect: background-session-without-delegate
        TransferStore.shared.track(session, whenDone: completionHandler)
    }
}

final class TransferStore {
    static let shared = TransferStore()
    private var pending: [URLSession: () -> Void] = [:]

    func track(_ session: URLSession, whenDone completion: @escaping () -> Void) {
        pending[session] = completion
    }
}
