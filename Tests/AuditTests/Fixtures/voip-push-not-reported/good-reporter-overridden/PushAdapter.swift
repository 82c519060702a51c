// swift-format-ignore-file
import PushKit

final class PushAdapter: NSObject, PKPushRegistryDelegate {
    var incomingCalls: IncomingCalls = IncomingCalls()

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        guard type == .voIP else { return completion() }
        let caller = payload.dictionaryPayload["caller"] as? String ?? "Unknown"
        incomingCalls.show(caller: caller) { _ in completion() }
    }
}
