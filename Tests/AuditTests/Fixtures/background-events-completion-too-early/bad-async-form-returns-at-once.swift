// swift-format-ignore-file
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {
    // The async form completes when it returns; this one returns at once.
    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String) async { // expect: background-events-completion-too-early
        print("events waiting for \(identifier)")
        TransferStore.shared.reconnect(identifier)
    }
}

final class TransferStore {
    static let shared = TransferStore()
    func reconnect(_ identifier: String) {}
}
