// swift-format-ignore-file
import CallKit
import PushKit

/// The push service hands each push to a closure the container assigns; that closure reaches the call manager
/// through a weakly held container, and the manager drops a push for a call it already shows.
final class PushService: NSObject, PKPushRegistryDelegate {
    var onIncomingPush: ((PKPushPayload, @escaping () -> Void) -> Void) = { _, done in done() }

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        onIncomingPush(payload, completion)
    }
}

final class CallManager {
    private let provider = CXProvider(configuration: CXProviderConfiguration())
    private var showing: String?

    func handlePush(caller: String, completion: @escaping () -> Void) {
        if showing == caller {
            completion()
            return // expect: voip-push-not-reported
        }
        showing = caller
        provider.reportNewIncomingCall(with: UUID(), update: CXCallUpdate()) { _ in completion() }
    }
}

final class Container {
    let pushes = PushService()
    let calls = CallManager()

    init() {
        pushes.onIncomingPush = { [weak self] payload, completion in
            let caller = payload.dictionaryPayload["caller"] as? String ?? "Unknown"
            self?.calls.handlePush(caller: caller, completion: completion) // expect: voip-push-not-reported
        }
    }
}
