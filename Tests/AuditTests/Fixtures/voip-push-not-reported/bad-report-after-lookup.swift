// swift-format-ignore-file
import CallKit
import PushKit

/// The call is reported only in the callback of the caller's lookup; when the lookup finds no caller, that callback
/// returns without reporting.
final class CallPushes: NSObject, PKPushRegistryDelegate {
    private let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        Contacts.shared.lookUp(payload.dictionaryPayload["from"] as? String ?? "") { contact in
            guard let contact else { return } // expect: voip-push-not-reported
            let update = CXCallUpdate()
            update.remoteHandle = CXHandle(type: .generic, value: contact.name)
            self.provider.reportNewIncomingCall(with: UUID(), update: update) { error in
                defer { completion() }
                guard error == nil else { return }
                CallSession.shared.connect(contact: contact, payload: payload)
            }
        }
    }
}
