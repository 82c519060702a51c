// swift-format-ignore-file
import CallKit
import PushKit

final class Pushes: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        // Only VoIP pushes owe CallKit a call; file-provider pushes do not.
        guard type == .voIP else {
            completion()
            return
        }
        let update = CXCallUpdate()
        update.localizedCallerName = payload.dictionaryPayload["name"] as? String
        provider.reportNewIncomingCall(with: UUID(), update: update) { _ in completion() }
    }
}
