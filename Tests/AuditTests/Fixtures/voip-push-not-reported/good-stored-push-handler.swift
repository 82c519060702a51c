// swift-format-ignore-file
import CallKit
import PushKit

/// The push goes, with its completion, to a closure the owner hands in; the owner's closure reports the call.
final class VoIPPushes: NSObject, PKPushRegistryDelegate {
    typealias Handler = ((payload: PKPushPayload, type: PKPushType, completion: () -> Void)) -> Void
    private let registry = PKPushRegistry(queue: .main)
    private let onPush: Handler

    init(onPush: @escaping Handler) {
        self.onPush = onPush
        super.init()
        registry.delegate = self
        registry.desiredPushTypes = [.voIP]
    }

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        onPush((payload, type, completion))
    }
}

final class Ringer {
    private let provider = CXProvider(configuration: CXProviderConfiguration())
    private lazy var pushes = VoIPPushes { [provider] push in
        provider.reportNewIncomingCall(with: UUID(), update: CXCallUpdate()) { _ in push.completion() }
    }
}
