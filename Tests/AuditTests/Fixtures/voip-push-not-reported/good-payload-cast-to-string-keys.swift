// swift-format-ignore-file
import CallKit
import PushKit

/// The payload's dictionary is cast to string keys before it is read: a push's payload comes from JSON, so the cast
/// cannot fail and its `else` is no path.
final class RingService: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        guard let fields = payload.dictionaryPayload as? [String: Any] else { return }
        let update = CXCallUpdate()
        update.localizedCallerName = fields["caller"] as? String ?? "Unknown"
        provider.reportNewIncomingCall(with: UUID(), update: update) { _ in completion() }
    }
}
