// swift-format-ignore-file
import CallKit
import PushKit

/// The invite case reports a stale invite and returns; a fresh one, and every other event, only updates the app's own
/// state and falls through to the end without a report.
final class CallPushes: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        defer { completion() }
        let data = payload.dictionaryPayload
        guard let callID = data["callId"] as? String, let event = data["event"] as? String else { return } // expect: voip-push-not-reported
        switch event {
        case "invite":
            if data["stale"] as? Bool == true { // expect: voip-push-not-reported
                report(callID)
                return
            }
            CallState.shared.ringing(callID)
        case "answered": // expect: voip-push-not-reported
            CallState.shared.answered(callID)
        case "cancelled": // expect: voip-push-not-reported
            CallState.shared.cancelled(callID)
        default: // expect: voip-push-not-reported
            print("unknown call event")
        }
    }

    private func report(_ callID: String) {
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: callID)
        provider.reportNewIncomingCall(with: UUID(), update: update) { _ in }
    }
}
