// swift-format-ignore-file
import PushKit
import UIKit

/// Swift 2 imported the callback as `pushRegistry(_:didReceiveIncomingPushWithPayload:forType:)`. It only posts a
/// local notification; since iOS 13 a VoIP push that reports no call gets the app terminated.
class PushListener: NSObject, PKPushRegistryDelegate {
    func pushRegistry(registry: PKPushRegistry!, didUpdatePushCredentials credentials: PKPushCredentials!, forType type: String!) {
        NSLog("token \(credentials.token)")
    }

    func pushRegistry(registry: PKPushRegistry!, didReceiveIncomingPushWithPayload payload: PKPushPayload!, forType type: String!) { // expect: voip-push-not-reported
        let alert = UILocalNotification()
        if let caller = payload.dictionaryPayload["caller"] as? String {
            alert.alertBody = "\(caller) is calling"
        }
        UIApplication.sharedApplication().presentLocalNotificationNow(alert)
    }
}
