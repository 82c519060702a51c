// swift-format-ignore-file
import PushKit

final class PushDelegate: NSObject, PKPushRegistryDelegate {
    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        let caller = payload.dictionaryPayload["caller"] as? String ?? "Unknown"
        guard CallDesk.shared.showCall(from: caller, completion: completion) else {
            completion()
            return // expect: voip-push-not-reported
        }
    }
}
