// swift-format-ignore-file
import CallKit
import PushKit
import UserNotifications

/// The form without a completion handler is kept for old systems; beside the newer form PushKit never calls it.
final class CallPushes: NSObject, PKPushRegistryDelegate {
    private let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(_ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType) {
        // What systems before iOS 11 did: a local notification, no CallKit.
        let content = UNMutableNotificationContent()
        content.title = "Incoming call"
        UNUserNotificationCenter.current().add(UNNotificationRequest(identifier: "call", content: content, trigger: nil))
    }

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: payload.dictionaryPayload["from"] as? String ?? "")
        provider.reportNewIncomingCall(with: UUID(), update: update) { _ in completion() }
    }
}
