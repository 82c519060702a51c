// swift-format-ignore-file
import CallKit
import PushKit

/// Every event reports a call: a stale invite is reported and ended at once, a hang-up is reported and ended.
final class CallPushes: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        defer { completion() }
        let data = payload.dictionaryPayload
        let callID = data["callId"] as? String ?? "unknown"
        switch data["event"] as? String {
        case "invite":
            if data["stale"] as? Bool == true {
                reportEnded(callID)
                return
            }
            _ = report(callID)
        default:
            reportEnded(callID)
        }
    }

    private func report(_ callID: String) -> UUID {
        let id = UUID()
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: callID)
        provider.reportNewIncomingCall(with: id, update: update) { _ in }
        return id
    }

    private func reportEnded(_ callID: String) {
        let id = report(callID)
        provider.reportCall(with: id, endedAt: nil, reason: .remoteEnded)
    }
}
