// swift-format-ignore-file
import PushKit

// The payload is read into the app's own value and kept; the call is reported later, when signalling rings, and
// never before the callback returns.
final class PushDelegate: NSObject, PKPushRegistryDelegate {
    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(_ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType, completion: @escaping () -> Void) { // expect: voip-push-not-reported
        guard type == .voIP else { return completion() }
        let invite = IncomingInvite(fields: payload.dictionaryPayload)
        Ringing.shared.expect(invite)
    }
}
