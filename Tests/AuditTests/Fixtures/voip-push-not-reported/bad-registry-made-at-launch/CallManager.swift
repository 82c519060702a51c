// swift-format-ignore-file
import CallKit
import PushKit

final class CallManager: NSObject, PKPushRegistryDelegate {
    static let shared = CallManager()
    private let provider = CXProvider(configuration: CXProviderConfiguration())
    private var registry: PKPushRegistry?

    func start() {
        registry = PKPushRegistry(queue: .main)
        registry?.delegate = self
        registry?.desiredPushTypes = [.voIP]
    }

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        report(payload.dictionaryPayload["handle"] as? String ?? "Unknown", completion: completion)
    }

    func report(_ handle: String, completion: @escaping () -> Void) {
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: handle)
        provider.reportNewIncomingCall(with: UUID(), update: update) { _ in completion() }
    }
}
