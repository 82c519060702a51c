// swift-format-ignore-file
import PushKit

final class PushHandler: NSObject, PKPushRegistryDelegate {
    let calls = CallReporter()

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(_ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType, completion: @escaping () -> Void) {
        let caller = payload.dictionaryPayload["caller"] as? String ?? "Unknown"
        // `video` has a default value and is left out.
        calls.reportIncoming(from: caller, completion: completion)
    }
}
