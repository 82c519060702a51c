// swift-format-ignore-file
import PushKit

final class PushHandler: NSObject, PKPushRegistryDelegate {
    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        let handle = payload.dictionaryPayload["handle"] as? String ?? "Unknown"
        CallManager.shared.reportIncomingCall(uuid: UUID(), handle: handle, completion: completion)
    }
}
