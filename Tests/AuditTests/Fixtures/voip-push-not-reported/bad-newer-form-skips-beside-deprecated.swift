// swift-format-ignore-file
import CallKit
import PushKit

/// Beside the deprecated form, the newer one is what runs: its early return is the mistake.
final class CallPushes: NSObject, PKPushRegistryDelegate {
    private let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(_ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType) {
        provider.reportNewIncomingCall(with: UUID(), update: CXCallUpdate()) { _ in }
    }

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        guard let from = payload.dictionaryPayload["from"] as? String else { return completion() } // expect: voip-push-not-reported
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: from)
        provider.reportNewIncomingCall(with: UUID(), update: update) { _ in completion() }
    }
}
