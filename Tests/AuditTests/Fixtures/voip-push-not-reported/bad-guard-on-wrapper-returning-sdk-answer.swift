// swift-format-ignore-file
import CallKit
import PushKit

/// The app's service returns the calling SDK's answer for the push (the call's id, or `nil` for a push it does not
/// know); the guard on that answer leaves without reporting a call.
final class PushService {
    let client = VoiceClient.shared

    func handlePushNotification(pushPayload: [AnyHashable: Any]) -> UUID? {
        client.handlePushNotification(pushPayload: pushPayload)
    }
}

final class PushCallNotifier: NSObject, PKPushRegistryDelegate {
    let pushService = PushService()
    let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        guard let callID = pushService.handlePushNotification(pushPayload: payload.dictionaryPayload) else {
            return // expect: voip-push-not-reported
        }
        provider.reportNewIncomingCall(with: callID, update: CXCallUpdate()) { _ in completion() }
    }
}
