// swift-format-ignore-file
import CallKit
import PushKit

/// A VoIP push also carries hang-ups and unknown signals: those branches must still report a call (and may end it
/// at once), or iOS stops delivering VoIP pushes and terminates the app.
final class PushHandler: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        let signal = payload.dictionaryPayload["signal"] as? String
        if signal == "hangup" { // expect: voip-push-not-reported
            Calls.shared.endRemotely(payload.dictionaryPayload["id"] as? String)
            completion()
        } else if signal == "ring" {
            let update = CXCallUpdate()
            update.remoteHandle = CXHandle(type: .generic, value: payload.dictionaryPayload["from"] as? String ?? "")
            provider.reportNewIncomingCall(with: UUID(), update: update) { _ in completion() }
        } else { // expect: voip-push-not-reported
            print("unknown signal")
            completion()
        }
    }
}
