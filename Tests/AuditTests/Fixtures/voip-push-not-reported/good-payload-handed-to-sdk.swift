// swift-format-ignore-file
import PushKit

/// Every VoIP push goes to the calling SDK, which reports the call to CallKit itself.
final class CallPushReceiver: NSObject, PKPushRegistryDelegate {
    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        guard type == .voIP else {
            completion()
            return
        }
        CallingSDK.shared.handleIncomingCall(payload, completion: completion)
    }
}
