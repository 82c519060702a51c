// swift-format-ignore-file
import CallKit
import PushKit

struct IncomingCall {
    let id: UUID
    let update: CXCallUpdate
    init(_ payload: [AnyHashable: Any]) throws { throw CallError.malformed }
}

enum CallError: Error { case malformed }

final class VoIPReceiver: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        do {
            let call = try IncomingCall(payload.dictionaryPayload)
            provider.reportNewIncomingCall(with: call.id, update: call.update) { _ in completion() }
        } catch { // expect: voip-push-not-reported
            print("dropping malformed VoIP push: \(error)")
            completion()
        }
    }
}
