// swift-format-ignore-file
import Combine
import PushKit

// The push callback sends the decoded push through a Combine subject; a push it cannot decode is never reported, and
// the subscriber skips the report while the app is in the foreground.
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
        guard let call = IncomingCall(payload.dictionaryPayload) else {
            completion()
            return // expect: voip-push-not-reported
        }
        incomingSubject.send(call)
        completion()
    }
}
