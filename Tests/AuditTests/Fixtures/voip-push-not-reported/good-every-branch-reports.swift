// swift-format-ignore-file
import CallKit
import PushKit

/// A hang-up push still reports a call, and ends it at once.
final class PushHandler: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        let signal = payload.dictionaryPayload["signal"] as? String
        let id = UUID()
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: payload.dictionaryPayload["from"] as? String ?? "")
        if signal == "hangup" {
            provider.reportNewIncomingCall(with: id, update: update) { _ in
                self.provider.reportCall(with: id, endedAt: nil, reason: .remoteEnded)
                completion()
            }
        } else {
            provider.reportNewIncomingCall(with: id, update: update) { _ in completion() }
        }
    }
}
