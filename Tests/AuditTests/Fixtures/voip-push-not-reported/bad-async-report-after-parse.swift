// swift-format-ignore-file
import CallKit
import PushKit

struct IncomingCall {
    let id: UUID
    let update: CXCallUpdate
    init(_ payload: [AnyHashable: Any]) throws { throw CallError.malformed }
}

enum CallError: Error { case malformed }

final class CallCenter: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    // The payload is parsed before the report: a malformed push throws first, and its catch reports nothing.
    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType
    ) async {
        do {
            let call = try IncomingCall(payload.dictionaryPayload)
            try await provider.reportNewIncomingCall(with: call.id, update: call.update)
        } catch { // expect: voip-push-not-reported
            print("dropping VoIP push: \(error)")
        }
    }
}
