// swift-format-ignore-file
import PushKit

/// The project's `handleIncomingPush` asks the SDK's method of the same name for the call, and reads the caller's
/// name with a typed declaration; a push the SDK does not know is dropped without a report.
final class PushBridge: NSObject, PKPushRegistryDelegate {
    let client = VoiceSDK.Client()
    weak var screen: CallScreen?

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry( // expect: voip-push-not-reported
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        handleIncomingPush(payload.dictionaryPayload)
        completion()
    }

    func handleIncomingPush(_ info: [AnyHashable: Any]) {
        guard let callID = client.handleIncomingPush(info) else { return }
        let caller: String = info["caller"] as? String ?? "Unknown"
        screen?.show(callID, caller)
    }
}
