// swift-format-ignore-file
import CallKit
import PushKit

/// The call is reported first; the report's callback runs after it, and when CallKit refuses the call it returns
/// without connecting: that path has already reported.
final class CallPushes: NSObject, PKPushRegistryDelegate {
    private let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        let uuid = UUID()
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: payload.dictionaryPayload["from"] as? String ?? "")
        provider.reportNewIncomingCall(with: uuid, update: update) { error in
            defer { completion() }
            guard error == nil else { return }
            CallSession.shared.connect(uuid: uuid, payload: payload)
        }
    }
}
