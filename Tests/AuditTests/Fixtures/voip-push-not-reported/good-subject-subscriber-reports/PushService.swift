// swift-format-ignore-file
import Combine
import PushKit

// The push callback decodes the push and sends it through a Combine subject; the call engine's subscriber reports it.
final class PushService: NSObject, PKPushRegistryDelegate {
    private let incomingSubject = PassthroughSubject<IncomingCall, Never>()
    private let registry = PKPushRegistry(queue: .main)

    var incomingCalls: AnyPublisher<IncomingCall, Never> {
        incomingSubject.eraseToAnyPublisher()
    }

    func start() {
        registry.delegate = self
        registry.desiredPushTypes = [.voIP]
    }

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(_ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType, completion: @escaping () -> Void) {
        incomingSubject.send(IncomingCall(payload.dictionaryPayload))
        completion()
    }
}
