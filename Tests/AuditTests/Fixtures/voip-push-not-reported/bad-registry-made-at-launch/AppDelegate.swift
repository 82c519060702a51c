// swift-format-ignore-file
import PushKit
import SwiftUI

/// The app delegate makes a registry of its own at launch, beside the call manager's: its VoIP callback runs, and
/// a push without a handle is never reported.
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
        registerForPushes()
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
            return // expect: voip-push-not-reported
        }
        CallManager.shared.report(handle, completion: completion)
    }
}
