// swift-format-ignore-file
import CallKit
import PushKit

final class CallCenter: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())
    var pending: [UUID: String] = [:]

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry( // expect: voip-push-not-reported
        _ registry: PKPushRegistry,
        didReceiveIncomingPushWith payload: PKPushPayload,
        for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        // Waits for the user to open the app instead of showing the call screen.
        let caller = payload.dictionaryPayload["caller"] as? String ?? "Unknown"
        pending[UUID()] = caller
        completion()
    }
}
