// swift-format-ignore-file
import CallKit
import PushKit

final class PushRouter: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())
    var busy = false

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        switch type {
        case .voIP:
            if busy { return } // expect: voip-push-not-reported
            let update = CXCallUpdate()
            provider.reportNewIncomingCall(with: UUID(), update: update) { _ in completion() }
        default:
            completion()
        }
    }
}
