// swift-format-ignore-file
import PushKit
import SwiftUI

/// The app delegate still has a VoIP callback, but the function that would make its registry is called by nothing:
/// the call manager's registry, whose delegate it is itself, is the one that delivers pushes.
@main
struct PhoneApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) var appDelegate
    var body: some Scene { WindowGroup { Text("Calls") } }
}

final class AppDelegate: NSObject, UIApplicationDelegate, PKPushRegistryDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        CallManager.shared.start()
        return true
    }

    func registerForPushes() {
        let registry = PKPushRegistry(queue: .main)
        registry.delegate = self
        registry.desiredPushTypes = [.voIP]
    }

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        guard let handle = payload.dictionaryPayload["handle"] as? String else {
            completion()
            return
        }
        CallManager.shared.report(handle, completion: completion)
    }
}
