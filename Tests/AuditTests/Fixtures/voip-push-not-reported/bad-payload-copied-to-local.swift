// swift-format-ignore-file
import PushKit
import UserNotifications

final class LegacyPushes: NSObject, PKPushRegistryDelegate {
    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    // The payload is copied into a local variable, read, and answered with a local notification: no call is reported.
    func pushRegistry(_ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType) { // expect: voip-push-not-reported
        var info = [AnyHashable: Any]()
        info = payload.dictionaryPayload
        let alert = info["alert"] as? String ?? "Incoming call"
        let content = UNMutableNotificationContent()
        content.body = alert
        UNUserNotificationCenter.current().add(UNNotificationRequest(identifier: "call", content: content, trigger: nil))
    }
}
