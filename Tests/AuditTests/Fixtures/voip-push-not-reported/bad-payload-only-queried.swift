// swift-format-ignore-file
import PushKit

/// The calling SDK is asked whether the payload is a call and given it only when it is: any other VoIP push is
/// dropped without a report.
final class CallPushReceiver: NSObject, PKPushRegistryDelegate {
    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        print(String(describing: payload.dictionaryPayload))
        if CallingSDK.shared.isIncomingCall(payload) {
            CallingSDK.shared.handleIncomingCall(payload, completion: completion)
        } else { // expect: voip-push-not-reported
            completion()
        }
    }
}
