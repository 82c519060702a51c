// swift-format-ignore-file
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {
    // Returns only once the session has delivered its events.
    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String) async {
        await TransferStore.shared.eventsDelivered(for: identifier)
    }
}

final class TransferStore: NSObject, URLSessionDelegate {
    static let shared = TransferStore()
    private var waiting: [String: CheckedContinuation<Void, Never>] = [:]

    func eventsDelivered(for identifier: String) async {
        await withCheckedContinuation { continuation in
            waiting[identifier] = continuation
            _ = URLSession(configuration: .background(withIdentifier: identifier), delegate: self, delegateQueue: nil)
        }
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        guard let identifier = session.configuration.identifier else { return }
        waiting.removeValue(forKey: identifier)?.resume()
    }
}
