// swift-format-ignore-file
import CallKit
import PushKit

final class CallCenter: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        guard let handle = payload.dictionaryPayload["handle"] as? String,
              let uuid = UUID(uuidString: payload.dictionaryPayload["id"] as? String ?? "")
        else {
            completion()
            return // expect: voip-push-not-reported
        }
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: handle)
        provider.reportNewIncomingCall(with: uuid, update: update) { _ in completion() }
    }
}
