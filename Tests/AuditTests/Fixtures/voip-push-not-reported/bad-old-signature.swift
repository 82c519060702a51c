// swift-format-ignore-file
import PushKit
import UserNotifications

final class LegacyVoIP: NSObject, PKPushRegistryDelegate {
    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    // Before iOS 13 a local notification was enough; now the system terminates the app.
    func pushRegistry(_ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType) { // expect: voip-push-not-reported
        let content = UNMutableNotificationContent()
        content.title = "Incoming call"
        let request = UNNotificationRequest(identifier: UUID().uuidString, content: content, trigger: nil)
        UNUserNotificationCenter.current().add(request)
    }
}
