// swift-format-ignore-file
import CallKit
import PushKit

/// The push is handed to a helper that switches on the event it carries: an invitation is reported, but a
/// cancellation and an answer from another device (and an event the app does not know) each return without a
/// report. Each skipping case is reported where it begins.
final class CallPushes: NSObject, PKPushRegistryDelegate {
    private let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(_ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType, completion: @escaping () -> Void) {
        handle(payload.dictionaryPayload)
        completion()
    }

    private func handle(_ info: [AnyHashable: Any]) {
        let event = info["event"] as? String ?? "invite"
        switch event {
        case "invite":
            let update = CXCallUpdate()
            update.remoteHandle = CXHandle(type: .generic, value: info["from"] as? String ?? "")
            provider.reportNewIncomingCall(with: UUID(), update: update) { _ in }
        case "cancel": // expect: voip-push-not-reported
            CallLog.shared.markMissed(info)
        case "answered-elsewhere": // expect: voip-push-not-reported
            break
        default: // expect: voip-push-not-reported
            break
        }
    }
}

final class CallLog {
    static let shared = CallLog()
    func markMissed(_ info: [AnyHashable: Any]) {}
}
