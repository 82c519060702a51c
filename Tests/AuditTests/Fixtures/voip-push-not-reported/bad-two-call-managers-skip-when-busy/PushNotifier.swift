// swift-format-ignore-file
import PushKit

/// Hands each VoIP push to whichever call manager the target installs.
final class PushNotifier: NSObject, PKPushRegistryDelegate {
    weak var delegate: IncomingCallDelegate?

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        let caller = payload.dictionaryPayload["caller"] as? String ?? "Unknown"
        delegate?.incomingCall(UUID(), from: caller)
        completion()
    }
}
