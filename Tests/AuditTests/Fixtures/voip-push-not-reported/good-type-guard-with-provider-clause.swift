// swift-format-ignore-file
import CallKit
import PushKit

/// The `guard` tests the push's type and binds the provider, which is made with the registry, before any push can
/// come: no VoIP push takes the `else`, and every one is reported.
final class RingPushes: NSObject, PKPushRegistryDelegate {
    private var provider: CXProvider?
    private var registry: PKPushRegistry?

    func start() {
        provider = CXProvider(configuration: CXProviderConfiguration())
        let registry = PKPushRegistry(queue: .main)
        registry.delegate = self
        registry.desiredPushTypes = [.voIP]
        self.registry = registry
    }

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        guard type == .voIP, let provider else {
            completion()
            return
        }
        provider.reportNewIncomingCall(with: UUID(), update: CXCallUpdate()) { _ in completion() }
    }
}
