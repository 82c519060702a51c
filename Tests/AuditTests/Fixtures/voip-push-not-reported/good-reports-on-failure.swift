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
        let uuid = UUID()
        guard let handle = payload.dictionaryPayload["handle"] as? String else {
            // Report anyway, then end the call at once: skipping the report gets the app killed.
            provider.reportNewIncomingCall(with: uuid, update: CXCallUpdate()) { _ in
                self.provider.reportCall(with: uuid, endedAt: nil, reason: .failed)
                completion()
            }
            return
        }
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: handle)
        provider.reportNewIncomingCall(with: uuid, update: update) { _ in completion() }
    }
}
