// swift-format-ignore-file
import CallKit
import PushKit

/// The calling SDK is given the push and this object as its delegate: when it answers that the push is one of its
/// calls, it calls the delegate back at once with the invite, which reports the call. A push it does not know is
/// reported here and ended.
final class VoicePushHandler: NSObject, PKPushRegistryDelegate, VoiceSDKNotificationDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        if !VoiceSDK.handleNotification(payload.dictionaryPayload, delegate: self, delegateQueue: nil) {
            reportUnknownPush()
        }
        completion()
    }

    func callInviteReceived(_ invite: CallInvite) {
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: invite.from)
        provider.reportNewIncomingCall(with: invite.uuid, update: update) { _ in }
    }

    private func reportUnknownPush() {
        let uuid = UUID()
        provider.reportNewIncomingCall(with: uuid, update: CXCallUpdate()) { [provider] _ in
            provider.reportCall(with: uuid, endedAt: nil, reason: .failed)
        }
    }
}
