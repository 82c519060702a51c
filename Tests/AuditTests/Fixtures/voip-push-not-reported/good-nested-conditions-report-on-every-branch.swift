// swift-format-ignore-file
import CallKit
import PushKit

/// Nested conditions, each with an `else` that still reports a call and ends it at once: every path reports.
final class CallPushReceiver: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        let fields = payload.dictionaryPayload
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: fields["caller"] as? String ?? "")
        if let text = fields["call_id"] as? String, let callID = UUID(uuidString: text) {
            if fields["event"] as? String == "ring" {
                provider.reportNewIncomingCall(with: callID, update: update) { _ in completion() }
            } else {
                reportEnded(UUID(), update: update, completion: completion)
            }
        } else {
            reportEnded(UUID(), update: update, completion: completion)
        }
    }

    private func reportEnded(_ id: UUID, update: CXCallUpdate, completion: @escaping () -> Void) {
        provider.reportNewIncomingCall(with: id, update: update) { _ in
            self.provider.reportCall(with: id, endedAt: nil, reason: .failed)
            completion()
        }
    }
}
