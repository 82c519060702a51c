// swift-format-ignore-file
import PushKit
import flutter_callkit_incoming

/// A Flutter app's own PushKit delegate reports through the CallKit plugin (`showCallkitIncoming(_:fromPushKit:)`)
/// for a ringing call only; a push that ends a call reports nothing.
final class PushHandler: NSObject, PKPushRegistryDelegate {
    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        let action = payload.dictionaryPayload["action"] as? String ?? ""
        let data = flutter_callkit_incoming.Data(id: UUID().uuidString, nameCaller: "Caller", handle: "", type: 0)
        switch action {
        case "ring":
            SwiftFlutterCallkitIncomingPlugin.sharedInstance?.showCallkitIncoming(data, fromPushKit: true)
        case "hangup": // expect: voip-push-not-reported
            SwiftFlutterCallkitIncomingPlugin.sharedInstance?.endCall(data)
        default: // expect: voip-push-not-reported
            break
        }
        completion()
    }
}
