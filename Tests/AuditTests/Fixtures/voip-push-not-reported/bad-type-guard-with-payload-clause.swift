// swift-format-ignore-file
import CallKit
import PushKit

/// One `guard` tests the push's type and reads the caller from the payload: a VoIP push without a caller takes the
/// `else` too, and leaves without a report, which the type test alone would not excuse.
final class CallPushes: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        guard type == .voIP, let caller = payload.dictionaryPayload["caller"] as? String else {
            completion()
            return // expect: voip-push-not-reported
        }
        let update = CXCallUpdate()
        update.localizedCallerName = caller
        provider.reportNewIncomingCall(with: UUID(), update: update) { _ in completion() }
    }
}
