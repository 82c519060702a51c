// swift-format-ignore-file
import CallKit
import PushKit

/// Two conditions nested, neither with an `else`: a push without a usable call id skips the outer one, a push that
/// is not a ring skips the inner one, and neither path reports a call.
final class CallPushReceiver: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        let fields = payload.dictionaryPayload
        if let text = fields["call_id"] as? String, let callID = UUID(uuidString: text) { // expect: voip-push-not-reported
            if fields["event"] as? String == "ring" { // expect: voip-push-not-reported
                let update = CXCallUpdate()
                update.remoteHandle = CXHandle(type: .generic, value: fields["caller"] as? String ?? "")
                provider.reportNewIncomingCall(with: callID, update: update) { _ in completion() }
            }
        }
    }
}
