// swift-format-ignore-file
import PushKit

final class PushDelegate: NSObject, PKPushRegistryDelegate {
    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        let room = payload.dictionaryPayload["room"] as? String ?? ""
        let caller = payload.dictionaryPayload["caller"] as? String ?? "Unknown"
        Calls.current.ring(room: room, from: caller) {
            completion()
        }
    }
}
