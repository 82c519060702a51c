// swift-format-ignore-file
import PushKit

/// The call manager has a stub for builds without CallKit, which a device build never compiles: the push callback
/// reaches the real manager, which reports every push, also one for a call it already tracks.
final class VoIPPushes: NSObject, PKPushRegistryDelegate {
    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        let callID = payload.dictionaryPayload["callId"] as? String ?? UUID().uuidString
        CallDesk.shared.showIncoming(callID: callID, pushCompletion: completion)
    }
}

#if canImport(CallKit)
import CallKit

final class CallDesk {
    static let shared = CallDesk()
    private let provider = CXProvider(configuration: CXProviderConfiguration())
    private var tracked: [String: UUID] = [:]

    func showIncoming(callID: String, pushCompletion: (() -> Void)?) {
        let uuid = tracked[callID] ?? UUID()
        tracked[callID] = uuid
        provider.reportNewIncomingCall(with: uuid, update: CXCallUpdate()) { _ in pushCompletion?() }
    }
}
#else
final class CallDesk {
    static let shared = CallDesk()

    func showIncoming(callID: String, pushCompletion: (() -> Void)?) {}
}
#endif
